import {
  CAPTURE_SIZES,
  DARK_METHODS,
  VIEWPORTS,
  type CaptureSize,
  type EmailClient,
  type RenderTarget,
} from "../capture/vocabulary";
import type { ValidationModule } from "../validations/types";
import { CREDITS_PER_RENDER, EXTRA_CREDITS_PER_RENDER, renderPrice } from "./render-pricing";

/**
 * The mail-client render catalog: which clients a visual email check can be rendered in, per form factor.
 * Each client is an emulation profile (src/capture/mail-clients/profiles.ts) applied to the message before
 * it is rendered in Chromium; docs/email-clients.md says what each one does and how faithful it is.
 *
 * Which clients an organization may name depends on its plan (./plans.ts `planIncludesClient`); the view
 * marks each client `planIncluded` for the caller's plan. `extraCredits` clients cost one more credit per
 * render (./render-pricing.ts). The catalog is compiled in; an operator's ASSAY_EMAIL_CLIENTS_FILE may narrow
 * which clients are offered (src/services/email-client-catalog.ts), and when that file cannot be read the
 * requests that name clients are EMAIL_CLIENT_CATALOG_UNAVAILABLE.
 */

type Base = Omit<
  EmailClient,
  "formFactor" | "nativeDefault" | "colorScheme" | "darkVariant" | "lightVariant" | "width" | "height"
>;

const APPLE_MAIL_MACOS: Base = {
  id: "apple-mail",
  name: "Apple Mail (macOS)",
  engine: "WebKit",
  renderIn: "webkit",
  profile: "apple-mail-macos",
  caniemail: ["apple-mail.macos"],
  darkMode: "color-scheme",
  extraCredits: false,
};
const APPLE_MAIL_IOS: Base = {
  id: "apple-mail-ios",
  name: "Apple Mail (iPhone)",
  engine: "WebKit",
  renderIn: "webkit",
  profile: "apple-mail-ios",
  caniemail: ["apple-mail.ios"],
  darkMode: "color-scheme",
  extraCredits: false,
};
const APPLE_MAIL_IPADOS: Base = { ...APPLE_MAIL_IOS, id: "apple-mail-ipados", name: "Apple Mail (iPad)" };
const GMAIL_WEB: Base = {
  id: "gmail-web",
  name: "Gmail (web)",
  engine: "Gmail sanitizer, Blink/WebKit/Gecko browser",
  profile: "gmail-web",
  caniemail: ["gmail.desktop-webmail"],
  darkMode: "none",
  extraCredits: false,
};
const GMAIL_IOS: Base = {
  id: "gmail-ios",
  name: "Gmail (iPhone app)",
  engine: "Gmail sanitizer, WebKit",
  profile: "gmail-app",
  caniemail: ["gmail.ios"],
  darkMode: "full-invert",
  extraCredits: false,
};
const GMAIL_IPADOS: Base = { ...GMAIL_IOS, id: "gmail-ipados", name: "Gmail (iPad app)" };
const GMAIL_ANDROID: Base = {
  id: "gmail-android",
  name: "Gmail (Android app)",
  engine: "Gmail sanitizer, Android WebView (Blink)",
  profile: "gmail-app",
  caniemail: ["gmail.android"],
  darkMode: "partial-invert",
  extraCredits: false,
};
const OUTLOOK_WEB: Base = {
  id: "outlook-web",
  name: "Outlook on the web / Outlook.com",
  engine: "Outlook.com sanitizer, browser",
  profile: "outlook-web",
  caniemail: ["outlook.outlook-com"],
  darkMode: "partial-invert",
  extraCredits: false,
};
const OUTLOOK_WINDOWS: Base = {
  id: "outlook-windows",
  name: "Outlook for Windows (Word engine, 2016–2021/365 classic)",
  engine: "Microsoft Word (approximated)",
  profile: "outlook-windows",
  caniemail: ["outlook.windows"],
  darkMode: "full-invert",
  extraCredits: true,
};
const OUTLOOK_IOS: Base = {
  id: "outlook-ios",
  name: "Outlook (iPhone app)",
  engine: "Outlook sanitizer, WebKit",
  profile: "outlook-app",
  caniemail: ["outlook.ios"],
  darkMode: "partial-invert",
  extraCredits: false,
};
const YAHOO_WEB: Base = {
  id: "yahoo-web",
  name: "Yahoo Mail (web)",
  engine: "Yahoo sanitizer, browser",
  profile: "yahoo-web",
  caniemail: ["yahoo.desktop-webmail"],
  darkMode: "none",
  extraCredits: true,
};
const THUNDERBIRD: Base = {
  id: "thunderbird",
  name: "Thunderbird",
  engine: "Gecko",
  renderIn: "gecko",
  profile: "thunderbird",
  caniemail: ["thunderbird.macos", "thunderbird.windows"],
  darkMode: "none",
  extraCredits: true,
};
const GMAIL_ANDROID_NON_GOOGLE: Base = {
  id: "gmail-android-non-google",
  name: "Gmail (Android app, non-Google account)",
  engine: "Gmail sanitizer for IMAP and Exchange accounts, Android WebView (Blink)",
  profile: "gmail-app-non-google",
  caniemail: ["gmail.android"],
  darkMode: "partial-invert",
  extraCredits: false,
};
const OUTLOOK_NEW_WINDOWS: Base = {
  id: "outlook-new-windows",
  name: "new Outlook for Windows",
  engine: "Outlook on the web in WebView2 (Edge, Blink)",
  profile: "outlook-new-windows",
  caniemail: ["outlook.outlook-com"],
  darkMode: "partial-invert",
  extraCredits: false,
};
const SAMSUNG_MAIL: Base = {
  id: "samsung-mail",
  name: "Samsung Email (Android)",
  engine: "Android WebView (Blink)",
  profile: "samsung-mail",
  caniemail: ["samsung-email.android"],
  darkMode: "full-invert",
  extraCredits: true,
};

function entries(formFactor: CaptureSize, list: Array<[Base, { width: number; native?: boolean }]>): EmailClient[] {
  const out: EmailClient[] = [];
  for (const [base, o] of list) {
    // Every client that darkens mail (its own dark styles, or a forced inversion) has a dark variant to render.
    const dark = base.darkMode !== "none";
    const light: EmailClient = {
      ...base,
      formFactor,
      nativeDefault: !!o.native,
      colorScheme: "light",
      width: o.width,
      height: VIEWPORTS[formFactor].height,
      ...(dark ? { darkVariant: `${base.id}-dark` } : {}),
    };
    out.push(light);
    if (dark) {
      out.push({
        ...light,
        id: `${base.id}-dark`,
        name: `${base.name}, dark mode`,
        nativeDefault: false,
        colorScheme: "dark",
        darkVariant: undefined,
        lightVariant: base.id,
      });
    }
  }
  return out.map(
    (c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as unknown as EmailClient,
  );
}

/** Form factor → clients. Widths are the reading pane at that form factor (docs/email-clients.md). */
export const EMAIL_CLIENTS: Record<CaptureSize, EmailClient[]> = {
  "mobile-sm": entries("mobile-sm", [
    [APPLE_MAIL_IOS, { width: 375, native: true }],
    [GMAIL_IOS, { width: 375 }],
    [GMAIL_ANDROID, { width: 375 }],
    [OUTLOOK_IOS, { width: 375 }],
    [GMAIL_ANDROID_NON_GOOGLE, { width: 375 }],
    [SAMSUNG_MAIL, { width: 375 }],
  ]),
  "tablet-portrait": entries("tablet-portrait", [
    [APPLE_MAIL_IPADOS, { width: 768, native: true }],
    [GMAIL_IPADOS, { width: 768 }],
  ]),
  "desktop-md": entries("desktop-md", [
    [APPLE_MAIL_MACOS, { width: 880, native: true }],
    [GMAIL_WEB, { width: 940 }],
    [OUTLOOK_WEB, { width: 760 }],
    [OUTLOOK_WINDOWS, { width: 720 }],
    [OUTLOOK_NEW_WINDOWS, { width: 760 }],
    [YAHOO_WEB, { width: 860 }],
    [THUNDERBIRD, { width: 840 }],
  ]),
};

export function findEmailClient(formFactor: string, id: string): EmailClient | undefined {
  return (EMAIL_CLIENTS as Record<string, EmailClient[] | undefined>)[formFactor]?.find((c) => c.id === id);
}

export function nativeDefault(formFactor: CaptureSize): EmailClient {
  return EMAIL_CLIENTS[formFactor].find((c) => c.nativeDefault)!;
}

/**
 * The renders a visual email check reads: per form factor named in its `clients` entry, the clients named
 * (an empty array means that form factor's native default); with no `clients`, the native default of each
 * of the check's standard form factors. A check that reads dark renders (email-dark-mode-legible) gets each
 * client's dark variant: every client that darkens mail has one; a client that does not (darkMode "none") is
 * rendered as it shows mail, light.
 * Unknown ids are refused earlier (UNKNOWN_EMAIL_CLIENT), so every id here resolves.
 */
export function renderTargets(module: ValidationModule, clients?: Record<string, string[]>): RenderTarget[] {
  const targets: RenderTarget[] = [];
  const wanted: Array<[CaptureSize, string[]]> = clients
    ? (Object.entries(clients) as Array<[CaptureSize, string[]]>)
    : module.meta.capture.standard.map((ff) => [ff, []]);
  const seen = new Set<string>();
  for (const [formFactor, ids] of wanted) {
    const list = ids.length ? ids.map((id) => findEmailClient(formFactor, id)!) : [nativeDefault(formFactor)];
    for (let client of list) {
      if (module.meta.needs.includes("render-dark") && client.darkVariant)
        client = findEmailClient(formFactor, client.darkVariant)!;
      const key = `${client.id}@${formFactor}`;
      if (seen.has(key)) continue;
      seen.add(key);
      targets.push({ client, formFactor });
    }
  }
  return targets;
}

/** GET /api/email-clients (and the list_email_clients tool): the clients offered, keyed by form factor then client id, with inclusion under the caller's plan. */
export function emailClientCatalogView(
  plan: { code: string; name: string },
  planIncludes: (client: EmailClient) => boolean,
  clients: Record<CaptureSize, EmailClient[]> = EMAIL_CLIENTS,
) {
  return {
    plan: { code: plan.code, name: plan.name },
    pricing: {
      creditsPerRender: CREDITS_PER_RENDER,
      extraCreditsPerRender: EXTRA_CREDITS_PER_RENDER,
      note: "A visual email check costs one credit per render (client × form factor), plus one for each render in an extraCredits client. A render that fails is refunded.",
    },
    formFactors: Object.fromEntries(
      CAPTURE_SIZES.map((ff) => [
        ff,
        {
          viewport: { width: VIEWPORTS[ff].width, height: VIEWPORTS[ff].height },
          nativeDefault: nativeDefault(ff).id,
          clients: Object.fromEntries(
            clients[ff].map((c) => [
              c.id,
              {
                id: c.id,
                name: c.name,
                engine: c.engine,
                nativeDefault: c.nativeDefault,
                planIncluded: planIncludes(c),
                extraCredits: c.extraCredits,
                creditsPerRender: renderPrice(c),
                colorScheme: c.colorScheme,
                darkMode: c.darkMode,
                darkMethod: DARK_METHODS[c.darkMode],
                ...(c.darkVariant ? { darkVariant: c.darkVariant } : {}),
                ...(c.lightVariant ? { lightVariant: c.lightVariant } : {}),
                renderWidth: c.width,
                caniemail: c.caniemail,
              },
            ]),
          ),
        },
      ]),
    ),
    docs: "docs/email-clients.md",
  };
}
