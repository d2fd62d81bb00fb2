/**
 * What a client's profile did to a message, change by change, with the rule that caused it and where that rule
 * comes from. Page helpers (installed by page-helpers.ts): the sanitizer records as it rewrites, in the page.
 */

/** Where a rule comes from (src/capture/mail-clients/rule-sources.ts has each one's title, address and date checked). */
export type RuleSourceId = "caniemail" | "gmail-css" | "gmail-links" | "word-engine" | "observed" | "assay";

export type ChangeAction =
  | "declaration-removed"
  | "declaration-rewritten"
  | "selector-removed"
  | "media-query-removed"
  | "at-rule-removed"
  | "style-block-removed"
  | "element-removed"
  | "element-rewritten"
  | "attribute-removed"
  | "names-prefixed"
  | "clipped"
  | "conditional-comments"
  | "layout-limited"
  | "images-blocked"
  | "link-rewritten";

/** One change (identical ones counted together). */
export interface RenderChange {
  action: ChangeAction;
  /** What was removed or rewritten: a declaration ("padding: 10px"), an at-rule, an element ("<svg>"). */
  target: string;
  /** The rule's selector, or the element (tag, id and classes as the message wrote them). */
  selector?: string;
  /** The line in the message's HTML part where it is (the style block's line when a rule's own is not found). */
  line?: number;
  /** Why: the client's rule, as its source states it. */
  rule: string;
  source: RuleSourceId;
  count: number;
}

export interface ChangeAt {
  target?: string;
  selector?: string;
  line?: number;
  /** The message's elements the change applies to (read once, when the change is recorded): each is marked with it. */
  on?: () => Iterable<Element>;
}

/**
 * The attribute that marks, in the sanitized message, the elements a change applies to: the indexes of the changes
 * (in the order recorded), space-separated; "w" for the Word engine's layout limits (applied after the sanitizer).
 * A message's own attribute of this name is removed first (sanitizeInPage), so a message cannot claim a change.
 */
export const CHANGE_MARK = "data-assay-change";
/** The Word engine's layout limits' mark (client-rendering.ts applies them after the sanitizer). */
export const WORD_LIMITS_MARK = "w";
/** At most this many elements are marked per change (a rule matching every cell of a long table). */
export const MARKS_PER_CHANGE = 200;
/** Each marking may match a selector over the whole message: a bound keeps a message of thousands of rules cheap. */
export const MAX_MARKINGS = 2000;

/** What a sanitizing records (SanitizeState in sanitize-css.ts holds it), and the message it finds lines in. */
export interface ChangeLog {
  /** One line per kind of change, in the order first made, with its count. */
  counts: Map<string, number>;
  /** Each change, keyed by what it is and where; past MAX_CHANGES only counted, in omitted. */
  changes: Map<string, RenderChange>;
  /** Each recorded change's index in `changes` (its order), by its key: what an element's mark names. */
  order: Map<string, number>;
  omitted: number;
  /** The message's HTML as it arrived, to find the line of what is changed; searches go on from the last hit per stream. */
  source: string;
  cursors: Map<string, number>;
  lineStarts: number[] | null;
  /** Searches made for lines so far: past limits.searches a change is recorded without its line. */
  searches: number;
  /** Changes whose elements were looked up and marked so far: past limits.markings a change marks none. */
  markings: number;
  /** The bounds (MAX_CHANGES, MAX_LINE_SEARCHES), handed into the page with the message. */
  limits: RecordLimits;
}

export interface RecordLimits {
  changes: number;
  searches: number;
  /** Elements marked per change (MARKS_PER_CHANGE), with the attribute CHANGE_MARK. */
  marks: number;
  /** Changes whose elements are looked up at most (MAX_MARKINGS). */
  markings: number;
  markAttribute: string;
}

/** Each search may scan the whole message: a bound keeps a huge message with thousands of styled elements cheap. */
export const MAX_LINE_SEARCHES = 2000;

/** At most this many distinct changes are kept per render; the rest are counted. */
export const MAX_CHANGES = 200;

/** The bounds and the mark a render hands into the page with the message. */
export const RECORD_LIMITS: RecordLimits = {
  changes: MAX_CHANGES,
  searches: MAX_LINE_SEARCHES,
  marks: MARKS_PER_CHANGE,
  markings: MAX_MARKINGS,
  markAttribute: CHANGE_MARK,
};

/**
 * Records one change: a summary line counted by kind (`what`), and the change itself with its rule; the elements it
 * applies to (`on`) are marked with it (CHANGE_MARK), so a check can tell which of its findings the change explains.
 */
export function sanitizeNote(
  s: ChangeLog,
  what: string,
  change: { action: ChangeAction; rule: string; source: RuleSourceId } & ChangeAt,
): void {
  s.counts.set(what, (s.counts.get(what) ?? 0) + 1);
  const target = (change.target ?? what).slice(0, 120);
  const key = [change.action, target, change.selector ?? "", change.line ?? "", change.rule].join("\u0000");
  const seen = s.changes.get(key);
  if (seen) seen.count++;
  else if (s.changes.size < s.limits.changes) {
    s.order.set(key, s.changes.size);
    s.changes.set(key, {
      action: change.action,
      target,
      ...(change.selector ? { selector: change.selector.slice(0, 200) } : {}),
      ...(change.line ? { line: change.line } : {}),
      rule: change.rule,
      source: change.source,
      count: 1,
    });
  } else s.omitted++;
  const index = s.order.get(key);
  if (index !== undefined && change.on && s.markings++ < s.limits.markings) markElements(s, change.on(), String(index));
}

/** Adds a change's mark to elements (at most limits.marks of them). */
export function markElements(s: ChangeLog, elements: Iterable<Element>, mark: string): void {
  let n = 0;
  const attribute = s.limits.markAttribute;
  for (const el of elements) {
    if (n++ >= s.limits.marks) break;
    const marks = (el.getAttribute(attribute) ?? "").split(" ").filter(Boolean);
    if (!marks.includes(mark)) el.setAttribute(attribute, [...marks, mark].join(" "));
  }
}

/**
 * Where the next occurrence of `needle` is in the message's HTML, searching on from where the last search of the
 * same `stream` ended (style blocks, elements of one tag, style attributes: each in document order), else from
 * `from`; -1 when the text is not found as written.
 */
export function sourceIndex(s: ChangeLog, needle: string, stream: string, from = 0): number {
  if (!needle || s.searches++ >= s.limits.searches) return -1;
  let at = s.source.indexOf(needle, Math.max(from, s.cursors.get(stream) ?? 0));
  if (at < 0) at = s.source.indexOf(needle, from);
  if (at >= 0) s.cursors.set(stream, at + 1);
  return at;
}

/** Moves a stream's search past the {…} block that follows its last hit (an at-rule dropped whole with its rules). */
export function skipSourceBlock(s: ChangeLog, stream: string): void {
  let i = s.source.indexOf("{", s.cursors.get(stream) ?? 0);
  if (i < 0) return;
  for (let depth = 0; i < s.source.length; i++) {
    const c = s.source[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) break;
  }
  s.cursors.set(stream, i + 1);
}

/** The line (from 1) of a position in the message's HTML. */
export function lineAt(s: ChangeLog, at: number): number {
  if (!s.lineStarts) {
    s.lineStarts = [0];
    for (let i = s.source.indexOf("\n"); i >= 0; i = s.source.indexOf("\n", i + 1)) s.lineStarts.push(i + 1);
  }
  let lo = 0;
  let hi = s.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.lineStarts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The line of the next occurrence of `needle` (see sourceIndex), or undefined. */
export function sourceLine(s: ChangeLog, needle: string, stream: string, from = 0): number | undefined {
  const at = sourceIndex(s, needle, stream, from);
  return at < 0 ? undefined : lineAt(s, at);
}

/** An element as the message wrote it: its tag, id and classes. */
export function describeElement(el: Element): string {
  const id = el.getAttribute("id");
  const classes = (el.getAttribute("class") ?? "").split(/\s+/).filter(Boolean);
  return `${el.tagName.toLowerCase()}${id ? `#${id}` : ""}${classes.map((c) => `.${c}`).join("")}`;
}

/** Why a caniemail feature removed something: "<title>: not supported in <client> <version> (caniemail)". */
export function caniemailRule(why: string): { rule: string; source: "caniemail" } {
  return { rule: why, source: "caniemail" };
}

export const SANITIZE_RECORD_HELPERS = {
  sanitizeNote,
  markElements,
  sourceIndex,
  skipSourceBlock,
  lineAt,
  sourceLine,
  describeElement,
  caniemailRule,
};
