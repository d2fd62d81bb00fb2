/**
 * The words capture shares with the checks and the catalog: the sizes a subject is captured at, the email
 * artifact kinds a check can ask for, and what a mail client is to the renderer. Kept here, below the checks and the
 * catalog, so that capture reads its own vocabulary and imports neither of them.
 */

export const CAPTURE_SIZES = ["mobile-sm", "tablet-portrait", "desktop-md"] as const;
export type CaptureSize = (typeof CAPTURE_SIZES)[number];

/** The browser viewport of each capture size; `mobile` turns on touch input (the layout width stays exact). */
export const VIEWPORTS: Record<CaptureSize, { width: number; height: number; mobile: boolean }> = {
  "mobile-sm": { width: 375, height: 667, mobile: true },
  "tablet-portrait": { width: 768, height: 1024, mobile: false },
  "desktop-md": { width: 1280, height: 800, mobile: false },
};

/**
 * The browser engines a page can be rendered in: Chromium (playwright-core, every capture), WebKit (WebKitGTK
 * through WebKitWebDriver, src/capture/engines/webkit.ts), what Safari and Apple Mail render with, and Gecko
 * (Firefox ESR over WebDriver BiDi, src/capture/engines/gecko.ts), what Firefox and Thunderbird render with.
 */
export const RENDER_ENGINES = ["chromium", "webkit", "gecko"] as const;
export type RenderEngine = (typeof RENDER_ENGINES)[number];
export const ENGINE_NAMES: Record<RenderEngine, string> = { chromium: "Chromium", webkit: "WebKit", gecko: "Gecko" };

/** What an email check reads beyond the parsed message; a webpage's artifact kinds are its gatherers' (artifacts.ts). */
export type EmailArtifactKind =
  /** The text/html part parsed in Chromium (EmailArtifacts.htmlDom). */
  | "email-html"
  /** SPF, DKIM and DMARC results from mailauth (EmailArtifacts.authentication). */
  | "authentication"
  /** Renders in emulated mail clients (EmailArtifacts.renders, src/capture/mail-clients). */
  | "render"
  /** The renders are in dark mode (each client's dark variant). */
  | "render-dark"
  /** axe-core on each render's document (EmailRender.axe). */
  | "render-axe"
  /** The text painted in the HTML part's pictures, read by OCR (EmailArtifacts.imageText; needs "email-html" too). */
  | "image-text";

// ------------------------------------------------------------------ mail clients

/** How a client changes a message when the reader's device is in dark mode. */
export type DarkMode =
  /** The message is shown as sent. */
  | "none"
  /** Apple Mail: the message's own dark styles (prefers-color-scheme) apply; a message that declares dark support (color-scheme) gets the dark canvas and light default text; a message with no colours of its own is darkened; one with colours of its own is left light. */
  | "color-scheme"
  /** Light backgrounds are darkened and dark text lightened; colours already dark (backgrounds) or light (text) are kept. */
  | "partial-invert"
  /** Every text and background colour has its lightness inverted. */
  | "full-invert";

/**
 * The two ways clients darken mail, per DarkMode: a forced inversion of the message's colours (full or partial),
 * which the sender cannot switch off, or the message's own prefers-color-scheme styles, which the sender writes.
 */
export type DarkMethod =
  | { method: "forced-inversion"; extent: "full" | "partial" }
  | { method: "prefers-color-scheme" }
  | { method: "none" };

export const DARK_METHODS: Record<DarkMode, DarkMethod> = {
  none: { method: "none" },
  "color-scheme": { method: "prefers-color-scheme" },
  "partial-invert": { method: "forced-inversion", extent: "partial" },
  "full-invert": { method: "forced-inversion", extent: "full" },
};

/** How one dark render was produced: the client's method and what it did with this message. */
export type DarkRendering = DarkMethod & {
  /** The message was shown dark (a dark canvas, recoloured or restyled), not left light. */
  darkened: boolean;
  /** What the client did, in a sentence. */
  how: string;
};

export type EmulationProfileId =
  | "apple-mail-macos"
  | "apple-mail-ios"
  | "gmail-web"
  | "gmail-app"
  | "gmail-app-non-google"
  | "outlook-web"
  | "outlook-new-windows"
  | "outlook-windows"
  | "outlook-app"
  | "yahoo-web"
  | "thunderbird"
  | "samsung-mail";

/** A mail client at one form factor, as the render catalog (src/catalog/email-clients.ts) lists it. */
export interface EmailClient {
  id: string;
  name: string;
  /** The engine the real client renders with. */
  engine: string;
  /** The browser engine Assay renders it in where this server has it (the Chromium emulation otherwise); absent: Chromium. */
  renderIn?: RenderEngine;
  formFactor: CaptureSize;
  /** The client a form factor renders in when a check names no client for it. */
  nativeDefault: boolean;
  extraCredits: boolean;
  profile: EmulationProfileId;
  /** caniemail client keys whose data drive the profile's CSS support, first match wins. */
  caniemail: string[];
  /** Rendered in dark mode (a dark variant) or light. */
  colorScheme: "light" | "dark";
  /** What the client does to a message in dark mode (how its dark variant renders). */
  darkMode: DarkMode;
  /** The dark (or light) twin of this client in the same form factor, when the catalog has one. */
  darkVariant?: string;
  lightVariant?: string;
  /** The width the message is laid out in (the client's reading pane at this form factor), and the viewport height. */
  width: number;
  height: number;
}

/** One render a visual email check reads: a client at a form factor. */
export interface RenderTarget {
  client: EmailClient;
  formFactor: CaptureSize;
}
