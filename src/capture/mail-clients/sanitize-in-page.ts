import type { SanitizerRules } from "./sanitize-css";
import type { SANITIZE_HELPERS } from "./sanitize-markup";
import type { RecordLimits, RenderChange } from "./sanitize-record";

export interface SanitizeResult {
  html: string;
  /** What the sanitizer changed, one line per kind of change, with counts. */
  notes: string[];
  /** Each change with its rule and where it is (at most MAX_CHANGES distinct; `omitted` counts the rest). */
  changes: RenderChange[];
  omitted: number;
}

/**
 * Runs inside a blank page, with SANITIZE_HELPERS installed (sanitize-css.ts, sanitize-markup.ts): parses the
 * message with DOMParser (nothing in it runs or loads), rewrites it the way the client's sanitizer does, and
 * serialises it back.
 */
export function sanitizeInPage(input: {
  html: string;
  /** The HTML part as it arrived, where the changes' lines are found. */
  source: string;
  rules: SanitizerRules;
  limits: RecordLimits;
  /** The render is in dark mode (a prefers-color-scheme: dark query holds there). */
  dark: boolean;
  helpersKey: string;
}): SanitizeResult {
  const h = (globalThis as unknown as Record<symbol, typeof SANITIZE_HELPERS>)[Symbol.for(input.helpersKey)]!;
  const { rules } = input;
  const doc = new DOMParser().parseFromString(input.html, "text/html");
  // Only the sanitizer marks which changes apply where: a message's own marks are not kept.
  for (const el of Array.from(doc.querySelectorAll(`[${input.limits.markAttribute}]`)))
    el.removeAttribute(input.limits.markAttribute);
  const s = h.sanitizeState(rules, input.source, input.limits, doc, input.dark);
  if (rules.word) h.drawVml(s, doc);
  h.removeUnsafeMarkup(s, doc);
  h.removeUnsupportedElements(s, doc);
  h.removeScriptAttributes(s, doc);
  if (rules.unsupported.base64Images) h.removeBase64Images(s, doc);
  h.sanitizeStyleBlocks(s, doc);
  h.sanitizeInlineStyles(s, doc);
  if (!rules.backgroundImages) h.removeBackgroundAttributes(s, doc);
  h.rewriteLinks(s, doc);
  if (rules.word) h.wordImageSizes(doc);
  h.prefixClassesAndIds(s, doc);
  if (rules.bodyToDiv && doc.body) h.bodyToDiv(s, doc);
  const notes = [...s.counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what));
  return {
    html: `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`,
    notes,
    changes: [...s.changes.values()],
    omitted: s.omitted,
  };
}
