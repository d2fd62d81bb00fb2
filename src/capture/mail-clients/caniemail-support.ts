import caniemail from "caniemail/caniemail.json";

/**
 * CSS and HTML support per mail client, read from the caniemail package's data (caniemail.com's tests).
 *
 * Each feature has, per client family and platform, results by tested version ("y", "n", "a" partial,
 * "u" unknown, with note numbers). The result that counts is the newest tested version, in real version
 * order: "12.2" comes after "6.1", "102.11" after "78.5", "2024-04" after "2024-01" (the package's own
 * helper sorts the keys as strings, and its data is not always listed in order either). A few clients mix
 * version numbers and test dates ("2016", "16.80"); those two schemes cannot be compared, so between the
 * newest of each the one caniemail lists later wins (its entries are added over time).
 *
 * Only "n" (not supported) removes anything; partial support is kept, and the partial behaviours that
 * matter for rendering are written by hand in the profiles (sanitizer rules), citing the note.
 */

type Stats = Record<string, Record<string, Record<string, string>>>;
interface Feature {
  slug: string;
  title: string;
  category: string;
  keywords: string | null;
  stats: Stats;
  notes_by_num: Record<string, string> | null;
}

const DATA = caniemail as unknown as { last_update_date: string; data: Feature[] };

/** When caniemail's data was last updated (the package's own date): the date its rules were checked. */
export const CANIEMAIL_UPDATED = DATA.last_update_date.slice(0, 10);

export type SupportLevel = "y" | "a" | "n" | "u";

export interface FeatureSupport {
  slug: string;
  title: string;
  level: SupportLevel;
  /** The version (or test date) the level comes from. */
  version: string;
  notes: string[];
  /** The caniemail client key the result was read from. */
  clientKey: string;
}

const DATED = /^(19|20)\d\d(-\d\d)?$/;
const versionTuple = (v: string) => (v.match(/\d+/g) ?? []).map(Number);
function compareVersions(a: string, b: string): number {
  const x = versionTuple(a);
  const y = versionTuple(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The newest tested version of one client's results, by real version order (see the module comment). */
export function newestVersion(results: Record<string, string>): string | undefined {
  const keys = Object.keys(results);
  if (keys.length === 0) return undefined;
  const dated = keys.filter((k) => DATED.test(k)).sort(compareVersions);
  const versioned = keys.filter((k) => !DATED.test(k)).sort(compareVersions);
  const a = dated[dated.length - 1];
  const b = versioned[versioned.length - 1];
  if (a === undefined) return b;
  if (b === undefined) return a;
  return keys.indexOf(a) > keys.indexOf(b) ? a : b;
}

/** A caniemail client key: "family.platform", e.g. "gmail.desktop-webmail", "outlook.windows". */
function supportOf(feature: Feature, clientKeys: string[]): FeatureSupport | undefined {
  for (const key of clientKeys) {
    const [family, platform] = key.split(".") as [string, string];
    const results = feature.stats[family]?.[platform];
    if (!results) continue;
    const version = newestVersion(results);
    if (version === undefined) continue;
    const raw = results[version]!;
    const level = (["y", "a", "n", "u"].includes(raw[0]!) ? raw[0] : "u") as SupportLevel;
    const notes = [...raw.matchAll(/#(\d+)/g)]
      .map((m) => feature.notes_by_num?.[m[1]!])
      .filter((n): n is string => !!n);
    return { slug: feature.slug, title: feature.title, level, version, notes, clientKey: key };
  }
  return undefined;
}

const bySlug = new Map(DATA.data.map((f) => [f.slug, f]));

const PROPERTY_NAME = /^-?[a-z]+(-[a-z]+)*$/;

/**
 * CSS property name → caniemail feature slug, built from the features' titles ("border-radius",
 * "max-width", "height property", "gap, column-gap, row-gap") and those of their keywords that are
 * property names of the same family ("margin-left" under margin, "border-top-color" under border).
 */
function buildPropertyMap(): Map<string, string> {
  const map = new Map<string, string>();
  const keywordMap = new Map<string, string>();
  for (const f of DATA.data) {
    if (f.category !== "css" || f.title.includes(":") || f.title.includes("(") || f.title.startsWith("@")) continue;
    const titleProps = f.title
      .replace(/ property$/, "")
      .split(/,|&/)
      .map((s) => s.trim())
      .filter((s) => PROPERTY_NAME.test(s));
    for (const p of titleProps) if (!map.has(p)) map.set(p, f.slug);
    const roots = new Set([...titleProps.map((p) => p.split("-")[0]), f.slug.replace(/^css-/, "").split("-")[0]]);
    for (const k of (f.keywords ?? "").split(",").map((s) => s.trim())) {
      if (k.includes("-") && PROPERTY_NAME.test(k) && roots.has(k.split("-")[0]) && !keywordMap.has(k))
        keywordMap.set(k, f.slug);
    }
  }
  for (const [k, slug] of keywordMap) if (!map.has(k)) map.set(k, slug);
  // Longhands caniemail files under their shorthand.
  for (const side of ["top", "right", "bottom", "left"]) {
    map.set(`padding-${side}`, "css-padding");
    map.set(`margin-${side}`, "css-margin");
  }
  for (const corner of ["top-left", "top-right", "bottom-left", "bottom-right"])
    map.set(`border-${corner}-radius`, "css-border-radius");
  return map;
}
const PROPERTY_FEATURES = buildPropertyMap();

/** Values that are features of their own: display:flex, linear-gradient(), calc(), units. */
const VALUE_FEATURES: Array<{ slug: string; property?: RegExp; value: RegExp }> = [
  { slug: "css-display-flex", property: /^display$/, value: /^(inline-)?flex\b/i },
  { slug: "css-display-grid", property: /^display$/, value: /^(inline-)?grid\b/i },
  { slug: "css-flex-direction", property: /^flex-direction$/, value: /column/i },
  { slug: "css-flex-wrap", property: /^flex-wrap$/, value: /^wrap/i },
  { slug: "css-linear-gradient", value: /linear-gradient\(/i },
  { slug: "css-radial-gradient", value: /radial-gradient\(/i },
  { slug: "css-conic-gradient", value: /conic-gradient\(/i },
  { slug: "css-unit-calc", value: /calc\(/i },
  { slug: "css-function-min", value: /(^|[^-\w])min\(/i },
  { slug: "css-function-max", value: /(^|[^-\w])max\(/i },
  { slug: "css-function-clamp", value: /clamp\(/i },
  { slug: "css-function-light-dark", value: /light-dark\(/i },
  { slug: "css-modern-color", value: /\b(ok)?(lch|lab)\(/i },
  { slug: "css-unit-rem", value: /\d(\.\d+)?rem\b/i },
  { slug: "css-unit-vh", value: /\d(\.\d+)?vh\b/i },
  { slug: "css-unit-vw", value: /\d(\.\d+)?vw\b/i },
  { slug: "css-unit-vmin", value: /\d(\.\d+)?vmin\b/i },
  { slug: "css-unit-vmax", value: /\d(\.\d+)?vmax\b/i },
  { slug: "css-unit-ch", value: /\d(\.\d+)?ch\b/i },
  { slug: "css-unit-ex", value: /\d(\.\d+)?ex\b/i },
  { slug: "css-unit-initial", value: /^initial$/i },
];

/** Selector features, as regular expressions over one selector. */
const SELECTOR_FEATURES: Array<{ slug: string; pattern: RegExp }> = [
  { slug: "css-selector-attribute", pattern: /\[/ },
  { slug: "css-selector-adjacent-sibling", pattern: /\+/ },
  { slug: "css-selector-general-sibling", pattern: /~(?!=)/ },
  { slug: "css-selector-child", pattern: />/ },
  { slug: "css-selector-universal", pattern: /\*(?!=)/ },
  ...DATA.data
    .filter((f) => f.slug.startsWith("css-pseudo-class-"))
    .map((f) => ({
      slug: f.slug,
      pattern: new RegExp(`(^|[^:]):${f.slug.slice("css-pseudo-class-".length)}(?![\\w-])`),
    })),
  ...DATA.data
    .filter((f) => f.slug.startsWith("css-pseudo-element-"))
    .map((f) => ({ slug: f.slug, pattern: new RegExp(`::?${f.slug.slice("css-pseudo-element-".length)}(?![\\w-])`) })),
];

/** Media features with a caniemail entry of their own. */
const MEDIA_FEATURES: Array<{ slug: string; pattern: RegExp }> = [
  { slug: "css-at-media-prefers-color-scheme", pattern: /prefers-color-scheme/i },
  { slug: "css-at-media-prefers-reduced-motion", pattern: /prefers-reduced-motion/i },
  { slug: "css-at-media-orientation", pattern: /orientation/i },
  { slug: "css-at-media-hover", pattern: /\b(any-)?hover\b/i },
  { slug: "css-at-media-device-pixel-ratio", pattern: /device-pixel-ratio|resolution/i },
];

/** HTML elements removed (or replaced by their fallback content) where caniemail says "not supported". */
const ELEMENT_FEATURES: Array<{ slug: string; selector: string; fallback: boolean }> = [
  { slug: "html-svg", selector: "svg", fallback: false },
  { slug: "html-video", selector: "video", fallback: true },
  { slug: "html-audio", selector: "audio", fallback: true },
  { slug: "html-object", selector: "object", fallback: true },
  { slug: "html-form", selector: "form", fallback: true },
  { slug: "html-marquee", selector: "marquee", fallback: true },
  { slug: "html-dialog", selector: "dialog", fallback: false },
  { slug: "html-progress", selector: "progress", fallback: true },
  { slug: "html-meter", selector: "meter", fallback: true },
];

/** What a client does not support, by feature, as the sanitizer reads it (serialisable into the page). */
export interface UnsupportedCss {
  /** Property name → "feature title (client version)" for the note. */
  properties: Record<string, string>;
  values: Array<{ property?: string; value: string; flags: string; why: string }>;
  selectors: Array<{ pattern: string; flags: string; why: string }>;
  mediaFeatures: Array<{ pattern: string; flags: string; why: string }>;
  /** At-rules not supported at all: "media", "font-face", "import", "keyframes", "supports". */
  atRules: Record<string, string>;
  elements: Array<{ selector: string; fallback: boolean; why: string }>;
  /** data: image sources (image-base64). */
  base64Images: string | null;
  nesting: string | null;
  important: string | null;
}

/** Everything a client's newest tested version does not support, from caniemail. */
export function unsupportedFor(clientKeys: string[]): UnsupportedCss {
  const why = (s: FeatureSupport) => `${s.title}: not supported in ${s.clientKey} ${s.version} (caniemail)`;
  const check = (slug: string): string | null => {
    const f = bySlug.get(slug);
    if (!f) return null;
    const s = supportOf(f, clientKeys);
    return s && s.level === "n" ? why(s) : null;
  };
  const properties: Record<string, string> = {};
  for (const [property, slug] of PROPERTY_FEATURES) {
    const w = check(slug);
    if (w) properties[property] = w;
  }
  const source = (r: RegExp) => ({ pattern: r.source, flags: r.flags });
  const values = VALUE_FEATURES.flatMap((v) => {
    const w = check(v.slug);
    return w
      ? [
          {
            ...(v.property ? { property: v.property.source } : {}),
            value: v.value.source,
            flags: v.value.flags,
            why: w,
          },
        ]
      : [];
  });
  const selectors = SELECTOR_FEATURES.flatMap((s) => {
    const w = check(s.slug);
    return w ? [{ ...source(s.pattern), why: w }] : [];
  });
  const mediaFeatures = MEDIA_FEATURES.flatMap((m) => {
    const w = check(m.slug);
    return w ? [{ ...source(m.pattern), why: w }] : [];
  });
  const atRules: Record<string, string> = {};
  for (const [name, slug] of [
    ["media", "css-at-media"],
    ["font-face", "css-at-font-face"],
    ["import", "css-at-import"],
    ["keyframes", "css-at-keyframes"],
    ["supports", "css-at-supports"],
  ] as const) {
    const w = check(slug);
    if (w) atRules[name] = w;
  }
  const elements = ELEMENT_FEATURES.flatMap((e) => {
    const w = check(e.slug);
    return w ? [{ selector: e.selector, fallback: e.fallback, why: w }] : [];
  });
  return {
    properties,
    values,
    selectors,
    mediaFeatures,
    atRules,
    elements,
    base64Images: check("image-base64"),
    nesting: check("css-nesting"),
    important: check("css-important"),
  };
}
