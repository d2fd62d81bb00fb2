import type { EmailClient, EmulationProfileId } from "../vocabulary";
import { unsupportedFor } from "./caniemail-support";
import type { SanitizerRules } from "./sanitize-css";
import type { RuleSourceId } from "./sanitize-record";

/**
 * Emulation profiles: what each client's sanitizer keeps, strips or rewrites, and how it shows the message.
 * CSS property, value, selector, at-rule, media-feature and element support come from caniemail's data
 * (caniemail-support.ts, newest tested version); the rest is written here by hand, each rule with where it
 * comes from. docs/email-clients.md describes every profile and how faithful it is.
 */
export interface RenderProfile {
  rules: Omit<SanitizerRules, "client" | "unsupported">;
  /** Conditional comments: "mso" renders `<!--[if mso]>` blocks as Outlook for Windows does; "none" leaves them comments. */
  conditionalComments: "mso" | "none";
  /** Gmail shows the first 102 KB of the HTML and a "[Message clipped]" link. */
  clipBytes: number | null;
  /** The client's default font for text the message does not style. */
  fontFamily: string;
  fontSize: string;
  /** Canvas and default text colour, light and dark. */
  light: { canvas: string; text: string };
  dark: { canvas: string; text: string };
  /** One line for the docs and the catalog. */
  fidelity: string;
  /** Where its rules come from (rule-sources.ts: each with its address and the day it was checked). */
  sources: RuleSourceId[];
}

const SANS = "-apple-system, 'Helvetica Neue', Helvetica, Arial, sans-serif";
const KEEP: RenderProfile["rules"] = {
  styleInBody: true,
  styleBlockMaxBytes: null,
  dropBlockOnNestedAtRule: false,
  mediaFeaturesAllowed: null,
  mediaNoHeight: false,
  dropNestedMedia: false,
  classPrefix: null,
  idPrefix: null,
  bodyToDiv: false,
  rewriteProperties: {},
  noNegativeMargins: false,
  word: false,
  styleBlocks: true,
  backgroundImages: true,
  linkRedirect: null,
};
const GMAIL_RULES: RenderProfile["rules"] = {
  ...KEEP,
  styleInBody: false,
  styleBlockMaxBytes: 16 * 1024,
  dropBlockOnNestedAtRule: true,
  mediaNoHeight: true,
  classPrefix: "m_",
  idPrefix: "m_",
  bodyToDiv: true,
  noNegativeMargins: true,
  linkRedirect: "https://www.google.com/url?q=",
};

const OUTLOOK_WEB_RULES: RenderProfile["rules"] = {
  ...KEEP,
  dropNestedMedia: true,
  classPrefix: "x_",
  idPrefix: "x_",
  bodyToDiv: true,
  noNegativeMargins: true,
};

const PROFILES: Record<EmulationProfileId, RenderProfile> = {
  "apple-mail-macos": {
    rules: KEEP,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: SANS,
    fontSize: "16px",
    light: { canvas: "#ffffff", text: "#000000" },
    dark: { canvas: "#1e1e1e", text: "#ffffff" },
    fidelity:
      "High: WebKit keeps nearly all HTML and CSS, as Chromium does; differences are font metrics and WebKit-only behaviour.",
    sources: ["caniemail", "assay"],
  },
  "apple-mail-ios": {
    rules: KEEP,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: SANS,
    fontSize: "16px",
    light: { canvas: "#ffffff", text: "#000000" },
    dark: { canvas: "#000000", text: "#ffffff" },
    fidelity:
      "High for layout at 375px; iOS Mail's shrink-to-fit of wide messages and its data detectors are not emulated.",
    sources: ["caniemail", "assay"],
  },
  "gmail-web": {
    rules: GMAIL_RULES,
    conditionalComments: "none",
    clipBytes: 102 * 1024,
    fontFamily: "Arial, Helvetica, sans-serif",
    fontSize: "small",
    light: { canvas: "#ffffff", text: "#222222" },
    dark: { canvas: "#ffffff", text: "#222222" },
    fidelity:
      "Good: Gmail's published rules (head-only style blocks up to 16 KB, class prefixing, body to div, 102 KB clipping), its link redirect (google.com/url, the href kept) and caniemail's CSS data; Gmail's undocumented filters are not all known.",
    sources: ["gmail-css", "caniemail", "gmail-links", "observed", "assay"],
  },
  "gmail-app-non-google": {
    rules: { ...GMAIL_RULES, styleBlocks: false, backgroundImages: false },
    conditionalComments: "none",
    clipBytes: 102 * 1024,
    fontFamily: "Roboto, Arial, sans-serif",
    fontSize: "14px",
    light: { canvas: "#ffffff", text: "#222222" },
    dark: { canvas: "#121212", text: "#e8eaed" },
    fidelity:
      "Good for what it removes: the Gmail app showing a non-Google (IMAP, Exchange, Outlook.com) account's mail drops every <style> block and every background image (caniemail html-style note 2, css-background-image note 1), on top of Gmail's rules; only inline styles remain.",
    sources: ["gmail-css", "caniemail", "gmail-links", "observed", "assay"],
  },
  "gmail-app": {
    rules: GMAIL_RULES,
    conditionalComments: "none",
    clipBytes: 102 * 1024,
    fontFamily: "Roboto, Arial, sans-serif",
    fontSize: "14px",
    light: { canvas: "#ffffff", text: "#222222" },
    dark: { canvas: "#121212", text: "#e8eaed" },
    fidelity:
      "Good for a Google account (Gmail's sanitizer as on the web, with the app's caniemail data); a non-Google account's mail is the gmail-app-non-google profile. Dark mode is an approximation of Gmail's colour inversion.",
    sources: ["gmail-css", "caniemail", "gmail-links", "observed", "assay"],
  },
  "outlook-web": {
    rules: OUTLOOK_WEB_RULES,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: "'Segoe UI', 'Helvetica Neue', Arial, sans-serif",
    fontSize: "15px",
    light: { canvas: "#ffffff", text: "#242424" },
    dark: { canvas: "#292929", text: "#ffffff" },
    fidelity:
      "Good: Outlook.com's x_ prefixes (attribute selectors left unprefixed, as the real one does), body to div, no nested media queries, and caniemail's CSS data. Dark mode approximates its partial inversion (data-ogsc/ogsb).",
    sources: ["caniemail", "observed", "assay"],
  },
  "outlook-new-windows": {
    rules: OUTLOOK_WEB_RULES,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: "'Segoe UI', 'Helvetica Neue', Arial, sans-serif",
    fontSize: "15px",
    light: { canvas: "#ffffff", text: "#242424" },
    dark: { canvas: "#292929", text: "#ffffff" },
    fidelity:
      "Good: the new Outlook for Windows is Outlook on the web in WebView2 (Edge, Blink, as Chromium), so Outlook.com's sanitizer rules and caniemail's Outlook.com data apply; no Word engine, no conditional comments.",
    sources: ["caniemail", "observed", "assay"],
  },
  "outlook-windows": {
    rules: { ...KEEP, word: true, noNegativeMargins: true },
    conditionalComments: "mso",
    clipBytes: null,
    fontFamily: "'Times New Roman', serif",
    fontSize: "16px",
    light: { canvas: "#ffffff", text: "#000000" },
    dark: { canvas: "#262626", text: "#ffffff" },
    fidelity:
      "An approximation of the Word engine, not Word: mso conditional comments are rendered, VML shapes drawn as plain boxes, and Word's CSS limits (caniemail data plus its notes: no max-width outside tables, no width/height on div/p/span/img, padding only on table cells, margin auto as 0, display only none, no background images, no border-radius, web fonts to Times New Roman) are applied to a Chromium render. Word's own table layout and line-height quirks are not reproduced.",
    sources: ["word-engine", "caniemail", "assay"],
  },
  "outlook-app": {
    rules: { ...KEEP, classPrefix: "x_", idPrefix: "x_" },
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: SANS,
    fontSize: "15px",
    light: { canvas: "#ffffff", text: "#242424" },
    dark: { canvas: "#1f1f1f", text: "#ffffff" },
    fidelity:
      "Fair: caniemail's data for the Outlook iOS app and its x_ prefixes; the app's own reformatting of wide messages is not emulated.",
    sources: ["caniemail", "assay"],
  },
  "yahoo-web": {
    rules: {
      ...KEEP,
      mediaFeaturesAllowed: ["min-width", "max-width", "min-height", "max-height", "width", "height"],
      classPrefix: "yiv0000000000",
      idPrefix: "yiv0000000000",
      bodyToDiv: true,
      rewriteProperties: { height: "min-height" },
      noNegativeMargins: true,
    },
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: "'Helvetica Neue', Helvetica, Arial, sans-serif",
    fontSize: "13px",
    light: { canvas: "#ffffff", text: "#1d2228" },
    dark: { canvas: "#ffffff", text: "#1d2228" },
    fidelity:
      "Fair: caniemail's data, Yahoo's media-query feature filter, height turned into min-height, class prefixes and body to div.",
    sources: ["caniemail", "observed", "assay"],
  },
  thunderbird: {
    rules: KEEP,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: "serif",
    fontSize: "16px",
    light: { canvas: "#ffffff", text: "#000000" },
    dark: { canvas: "#ffffff", text: "#000000" },
    fidelity:
      "Good for layout: Thunderbird renders with Gecko, and so does this render where Firefox ESR is installed (laid out in Gecko after the profile is applied in Chromium), under caniemail's Thunderbird data (which, for its newest tested version, lists media queries as unsupported); without Firefox, Chromium's layout, and the render says so.",
    sources: ["caniemail", "assay"],
  },
  "samsung-mail": {
    rules: KEEP,
    conditionalComments: "none",
    clipBytes: null,
    fontFamily: "Roboto, 'Samsung Sans', Arial, sans-serif",
    fontSize: "14px",
    light: { canvas: "#ffffff", text: "#000000" },
    dark: { canvas: "#000000", text: "#fafafa" },
    fidelity:
      "Good for layout: an Android WebView (Blink, as Chromium) under caniemail's Samsung Email data; its dark mode is approximated as a full inversion.",
    sources: ["caniemail", "assay"],
  },
};

export const profileOf = (client: EmailClient): RenderProfile => PROFILES[client.profile];

/** The sanitizer rules for one client: the profile's hand-written rules plus caniemail's "not supported" list. */
export function sanitizerRulesFor(client: EmailClient): SanitizerRules {
  return { ...PROFILES[client.profile].rules, client: client.id, unsupported: unsupportedFor(client.caniemail) };
}

/**
 * Outlook for Windows' conditional comments, on the source text (Word reads them before parsing):
 * `<!--[if mso]>…<![endif]-->` blocks are shown when the condition holds for Word (mso 16, not IE), and
 * `<!--[if !mso]><!-->…<!--<![endif]-->` blocks are dropped when it does not.
 */
export function applyConditionalComments(html: string): { html: string; applied: number } {
  let applied = 0;
  const revealed = html.replace(
    /<!--\[if ([^\]]+)\]><!-->([\s\S]*?)<!--<!\[endif\]-->/gi,
    (_, cond: string, inner: string) => {
      applied++;
      return msoCondition(cond) ? inner : "";
    },
  );
  const hidden = revealed.replace(
    /<!--\[if ([^\]]+)\]>([\s\S]*?)<!\[endif\]-->/gi,
    (_, cond: string, inner: string) => {
      applied++;
      // An <xml> island (o:OfficeDocumentSettings) is settings Word reads, never shows: a browser would print its text.
      return msoCondition(cond) ? inner.replace(/<xml\b[\s\S]*?<\/xml>/gi, "") : "";
    },
  );
  return { html: hidden, applied };
}

/** Evaluates a conditional-comment expression for Outlook for Windows (Word, mso version 16; IE false). */
export function msoCondition(expression: string): boolean {
  const tokens = expression.match(/\(|\)|!|&|\||gte|gt|lte|lt|mso|ie|\d+(\.\d+)?|[a-z]+/gi) ?? [];
  let i = 0;
  const peek = () => tokens[i]?.toLowerCase();
  const or = (): boolean => {
    let v = and();
    while (peek() === "|") {
      i++;
      v = and() || v;
    }
    return v;
  };
  const and = (): boolean => {
    let v = unary();
    while (peek() === "&") {
      i++;
      v = unary() && v;
    }
    return v;
  };
  const unary = (): boolean => {
    if (peek() === "!") {
      i++;
      return !unary();
    }
    if (peek() === "(") {
      i++;
      const v = or();
      if (peek() === ")") i++;
      return v;
    }
    let op: string | undefined;
    if (["gte", "gt", "lte", "lt"].includes(peek() ?? "")) op = tokens[i++]!.toLowerCase();
    const name = tokens[i++]?.toLowerCase();
    let version: number | undefined;
    if (/^\d/.test(peek() ?? "")) version = Number(tokens[i++]);
    if (name !== "mso") return false; // IE, vml and anything else: not Word
    const MSO = 16;
    if (version === undefined) return true;
    switch (op) {
      case "gte":
        return MSO >= version;
      case "gt":
        return MSO > version;
      case "lte":
        return MSO <= version;
      case "lt":
        return MSO < version;
      default:
        return MSO === version;
    }
  };
  return or();
}

/** Gmail's clipping: past 102 KB of HTML only the start is shown, with a link to the rest. */
export function clipHtml(html: string, maxBytes: number): { html: string; clipped: boolean } {
  const bytes = Buffer.from(html, "utf8");
  if (bytes.byteLength <= maxBytes) return { html, clipped: false };
  const head = bytes
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "")
    .replace(/<[^>]*$/, "");
  return {
    html: `${head}<div class="assay-gmail-clip" style="font: 13px Arial, sans-serif; color: #222; padding: 8px 0">[Message clipped]&nbsp;&nbsp;<a href="#">View entire message</a></div>`,
    clipped: true,
  };
}
