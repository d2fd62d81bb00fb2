/**
 * Unrendered template syntax in text a reader sees (a page's visible text, a message's subject, preheader,
 * HTML text or text part): the shapes template engines and mail services use for a field, not a list of
 * field names. Read by no-unrendered-placeholders and email-no-merge-tags.
 */

export interface TemplateSyntax {
  /** What kind of syntax, for the finding: "{{ }} template variable". */
  label: string;
  /** The text that matched: "{{ first_name }}". */
  match: string;
  index: number;
}

/**
 * Bracketed prose that looks like a field but is not one: an all-caps word of up to three letters is an
 * abbreviation ([PDF], [AD], [EN], [SIC]); these longer labels mark content in headlines and link text.
 */
const BRACKETED_LABELS = new Set([
  "VIDEO",
  "AUDIO",
  "PHOTO",
  "PHOTOS",
  "GALLERY",
  "PODCAST",
  "UPDATED",
  "UPDATE",
  "EDIT",
  "SPONSORED",
  "ADVERTISEMENT",
  "LIVE",
  "BREAKING",
  "EXCLUSIVE",
  "OPINION",
  "REVIEW",
  "WATCH",
  "LISTEN",
  "CLOSED",
  "SOLD OUT",
  "NSFW",
  // Subject-line tags of marketing mail.
  "SALE",
  "FREE",
  "OFFER",
  "NEWS",
  "EVENT",
  "WEBINAR",
  "INVITATION",
  "REMINDER",
  "URGENT",
  "LAST CHANCE",
  "LIMITED TIME",
  "FINAL HOURS",
  "ACTION REQUIRED",
  "DOCX",
  "XLSX",
  "PPTX",
  "HTML",
  "JSON",
]);

const ALL_CAPS_FIELD = /\[([A-Z][A-Z0-9]*(?:[_ .-][A-Z0-9]+)*)\]/g;

/**
 * A field in angle brackets, escaped so the reader sees it: <FIRSTNAME>, <First Name>, <FirstName>,
 * <first_name>, <firstName>. The shapes are those of bracketed fields, so a lone lower-case word (an HTML
 * tag name shown as text, <br>), an address (<info@example.com>, <https://…>), "a < b", "<3" and "x -> y" are
 * not fields; neither are keys written in angle brackets (<ENTER>, <Page Down>) nor abbreviations (<PDF>).
 */
const ANGLE_FIELD =
  /<([A-Z][A-Z0-9]*(?:[ _][A-Z0-9]+)*|[A-Z][a-z0-9]+(?:[ _]?[A-Z][a-z0-9]*)+|[a-z]{2,}(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)>/g;
const KEY_NAMES = new Set([
  "ENTER",
  "RETURN",
  "SPACE",
  "SHIFT",
  "CTRL",
  "CONTROL",
  "DELETE",
  "BACKSPACE",
  "ESCAPE",
  "HOME",
  "INSERT",
  "PAGE UP",
  "PAGE DOWN",
  "PGUP",
  "PGDN",
  "CAPS LOCK",
  "OPTION",
  "COMMAND",
]);

const SYNTAXES: Array<[string, RegExp]> = [
  ["Mailchimp merge tag *|X|*", /\*\|[A-Za-z0-9_:.-]+\|\*/],
  ["{{ }} template variable", /\{\{[^{}\n]{0,200}\}\}/],
  ["{% %} template tag", /\{%[^\n]{0,200}?%\}/],
  ["{$ } template variable", /\{\$[A-Za-z_][\w.\->[\]]*\}/],
  ["${ } interpolation", /\$\{[^}\n]{1,200}\}/],
  ["%%X%% merge field", /%%[=!]?[A-Za-z_][^%\s]{0,100}%%/],
  ["[% %] template tag", /\[%[^%\n]{1,200}%\]/],
  ["<% %> template tag", /<%[=-]?[^%\n]{1,200}%>/],
  ["<$ $> template tag", /<\$[^$<>\n]{1,200}\$>/],
  ["Campaign Monitor tag [x,fallback=]", /\[[A-Za-z][\w ]*,\s*fallback=[^\]\n]*\]/i],
  ["[[X]] field", /\[\[\s*[A-Za-z_][\w .:-]{0,60}\]\]/],
  ["[INSERT …] authoring placeholder", /\[(?:INSERT|ADD|YOUR|ENTER|PLACEHOLDER)\b[^\]\n]{0,80}\]/i],
  // camelCase from two lower-case letters on, so a product name such as [iPhone] or [eBay] is not a field.
  [
    "[FieldName] field",
    /\[(?:[a-z]{2,}(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\]/,
  ],
];

/** The first unrendered template syntax in the text, or null. */
export function findTemplateSyntax(text: string): TemplateSyntax | null {
  let first: TemplateSyntax | null = null;
  const consider = (label: string, match: string, index: number) => {
    if (!first || index < first.index) first = { label, match, index };
  };
  for (const [label, pattern] of SYNTAXES) {
    const m = pattern.exec(text);
    if (m) consider(label, m[0], m.index);
  }
  for (const m of text.matchAll(ALL_CAPS_FIELD)) {
    const word = m[1]!;
    if (/^[A-Z]{1,3}$/.test(word) || BRACKETED_LABELS.has(word) || /^[A-Z]?[0-9.]+$/.test(word)) continue;
    consider("[FIELD] placeholder", m[0], m.index!);
    break;
  }
  for (const m of text.matchAll(ANGLE_FIELD)) {
    const word = m[1]!;
    if (/^[A-Z]{1,3}$/.test(word) || KEY_NAMES.has(word.toUpperCase()) || /^[A-Z]?[0-9.]+$/.test(word)) continue;
    consider("<Field> placeholder", m[0], m.index!);
    break;
  }
  return first;
}
