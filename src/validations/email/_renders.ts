import type { CaptureSize } from "../../capture/vocabulary";
import type { Finding, Outcome, ValidationMeta } from "../types";
import type { EmailArtifacts } from "../../capture/email/email-artifacts";
import type { EmailRender, RenderOutcome } from "../../capture/mail-clients/render";
import { RULE_SOURCES } from "../../capture/mail-clients/rule-sources";
import type { RenderChange } from "../../capture/mail-clients/sanitize-record";

/**
 * Defaults shared by the visual email checks: rendered in emulated mail clients (src/capture/mail-clients),
 * measured on each render, judged on the renders' screenshots. One credit per render (client × form
 * factor), one more in an extra-credit client; with no `clients`, each standard form factor's native client.
 */
export function renderCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta> & { standard: CaptureSize[]; dark?: boolean },
): ValidationMeta & { subjectType: "email" } {
  const { standard, dark, ...rest } = meta;
  return {
    slug: meta.id,
    kind: "visual",
    price: { credits: standard.length },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: ["mobile-sm", "tablet-portrait", "desktop-md"], standard },
    needs: dark ? ["render", "render-dark"] : ["render"],
    method: "dom",
    ...rest,
    subjectType: "email",
  };
}

/** The renders of this check's clients (set on the message by the job's render stage), split by outcome. */
export function rendersFor(
  email: EmailArtifacts,
  validationId: string,
): { ok: EmailRender[]; failed: Extract<RenderOutcome, { ok: false }>[] } | Outcome {
  const outcomes = email.renders?.[validationId];
  if (!outcomes) {
    const why =
      email.html === null && email.text === null
        ? "The message has no body to render."
        : "The message was not rendered for this check.";
    return { verdict: "error", reason: why, reasoning: why, findings: [] };
  }
  const ok = outcomes.filter((o): o is Extract<RenderOutcome, { ok: true }> => o.ok).map((o) => o.render);
  const failed = outcomes.filter((o): o is Extract<RenderOutcome, { ok: false }> => !o.ok);
  if (ok.length === 0) {
    const why = `The message could not be rendered in ${failed.map((f) => `${f.client.name} at ${f.formFactor} (${f.error})`).join("; ")}.`;
    return {
      verdict: "error",
      reason: why,
      reasoning: why,
      findings: failed.map((f) => ({
        message: `render failed: ${f.error}`,
        viewport: f.formFactor,
        text: f.client.id,
      })),
    };
  }
  return { ok, failed };
}

export const where = (r: EmailRender) => `${r.client.name} at ${r.formFactor} (${r.client.width}px)`;

export function findingAt(r: EmailRender, f: Omit<Finding, "viewport">): Finding {
  return { ...f, viewport: r.formFactor, measured: { client: r.client.id, ...(f.measured ?? {}) } };
}

/**
 * What a finding measured, as a client's changes to the message can explain it: text overlapping, the message wider
 * than the screen, an element hidden or shrunk, colours, an image, what assistive technology reads (semantics).
 */
export type Aspect = "overlap" | "width" | "visibility" | "colour" | "image" | "semantics";

/** The CSS properties whose loss or rewrite bears on each aspect. */
const PROPERTIES: Record<Aspect, RegExp> = {
  overlap:
    /^(position|top|right|bottom|left|inset|margin|padding|height|min-height|max-height|line-height|display|float|clear|width|min-width|max-width|font-size|overflow|transform|vertical-align|flex|grid|table-layout|white-space|box-sizing)/,
  width:
    /^(width|min-width|max-width|display|float|flex|grid|padding|margin|box-sizing|table-layout|white-space|word-break|word-wrap|overflow-wrap|overflow|position|left|right|inset|font-size)/,
  visibility:
    /^(display|visibility|opacity|height|min-height|max-height|overflow|position|top|right|bottom|left|inset|width|min-width|max-width|margin|padding|transform|font-size|line-height|mso-hide)/,
  colour: /^(color|background|opacity|mix-blend-mode|filter|color-scheme)/,
  image: /^(background|width|height|display|visibility)/,
  semantics:
    /^(display|visibility|content|color|background|opacity|font-size|font-weight|line-height|letter-spacing|word-spacing|overflow|position|width|height)/,
};
/** The HTML attributes whose loss bears on each aspect. */
const ATTRIBUTES: Record<Aspect, RegExp> = {
  overlap: /^(width|height)$/,
  width: /^width$/,
  visibility: /^(width|height)$/,
  colour: /^(background|bgcolor)$/,
  image: /^(src|alt|background)$/,
  // What assistive technology reads: roles, names, states, languages, table headers, focus order.
  semantics: /./,
};

/** Whether one change can bear on what a finding measured (its kind and what it removed, not where: see explain). */
function bearsOn(c: RenderChange, aspect: Aspect): boolean {
  switch (c.action) {
    case "declaration-removed":
    case "declaration-rewritten":
      return PROPERTIES[aspect].test(c.target.split(":")[0]!.trim().toLowerCase());
    case "attribute-removed":
      return ATTRIBUTES[aspect].test(c.target.split("=")[0]!.trim().toLowerCase());
    case "media-query-removed":
      // A dark-scheme query holds colours; any other (width, orientation) the layout.
      return /prefers-color-scheme/i.test(c.target) ? aspect === "colour" : aspect !== "colour";
    case "selector-removed":
    case "style-block-removed":
    case "at-rule-removed":
      // The element lost whole rules that styled it here: whatever they set.
      return true;
    case "layout-limited":
      return aspect !== "colour";
    case "element-removed":
    case "element-rewritten":
    // Prefixed ids no longer match the references to them (aria-labelledby, aria-describedby, headers, for).
    case "names-prefixed":
      return aspect === "semantics";
    default:
      return false;
  }
}

const VERB: Partial<Record<RenderChange["action"], string>> = {
  "declaration-removed": "drops",
  "declaration-rewritten": "rewrites",
  "selector-removed": "drops the selector",
  "media-query-removed": "drops",
  "at-rule-removed": "drops",
  "style-block-removed": "drops a",
  "attribute-removed": "drops the attribute",
  "layout-limited": "limits",
};

/** One change in a sentence: what the client did, where, the rule, and its source with its address. */
function changeSentence(r: EmailRender, c: RenderChange): string {
  const source = RULE_SOURCES[c.source];
  const target = c.action === "style-block-removed" ? "<style> block" : c.target;
  const on = c.selector && c.selector !== c.target ? ` on ${c.selector}` : "";
  const line = c.line ? ` (line ${c.line})` : "";
  return `${r.client.name} ${VERB[c.action] ?? c.action} ${target}${on}${line}: ${c.rule} (source: ${source.name}, ${source.url})`;
}

/** At most this many changes are cited per finding. */
const CITED = 3;

/**
 * The changes of a render that explain a finding about the elements `selectors` name: those recorded on an element
 * or one of its ancestors (the render's changesAt) that bear on what the finding measured. Nothing else is cited.
 */
export function explain(r: EmailRender, selectors: Array<string | undefined>, aspect: Aspect): string[] {
  const indexes = new Set(selectors.flatMap((s) => (s ? (r.changesAt[s] ?? []) : [])));
  return [...indexes]
    .sort((a, b) => a - b)
    .map((i) => r.changes[i]!)
    .filter((c) => c && bearsOn(c, aspect))
    .slice(0, CITED)
    .map((c) => changeSentence(r, c));
}

/**
 * The render's changes of these kinds, whatever element a finding names: changes to the whole message that mark no
 * element, such as prefixed ids (every reference to an id then misses it).
 */
export function changesOfKind(r: EmailRender, actions: RenderChange["action"][]): string[] {
  return r.changes
    .filter((c) => actions.includes(c.action))
    .slice(0, CITED)
    .map((c) => changeSentence(r, c));
}

/** A finding with the render's changes that explain it (measured.explainedBy), when any does. */
export function explained(
  r: EmailRender,
  f: Omit<Finding, "viewport">,
  selectors: Array<string | undefined>,
  aspect: Aspect,
): Finding {
  const why = explain(r, selectors, aspect);
  const finding = findingAt(r, f);
  return why.length ? { ...finding, measured: { ...finding.measured, explainedBy: why } } : finding;
}

const explanationOf = (f: Finding) => (f.measured?.explainedBy as string[] | undefined) ?? [];

/**
 * The reason's clause citing what the client did, when a finding's explanation is known: for `cited` (the finding the
 * reason names; null when it names none) ", because …"; else the first explained finding's message with its cause;
 * "" when none is explained.
 */
export function because(findings: Finding[], cited: Finding | null = findings[0] ?? null): string {
  if (cited && explanationOf(cited).length) return `, because ${explanationOf(cited).join("; ")}`;
  const other = findings.find((f) => explanationOf(f).length);
  return other ? `. ${other.message}, because ${explanationOf(other).join("; ")}` : "";
}
