import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck, quote } from "./_helpers";

/** Template syntaxes and authoring markers that should never reach a visitor. */
const PLACEHOLDERS: Array<[string, RegExp]> = [
  ["{{ }} template variable", /\{\{[^}]*\}\}/],
  ["{% %} template tag", /\{%[^%]*%\}/],
  ["${ } interpolation", /\$\{[^}]+\}/],
  ["%%NAME%% merge field", /%%[A-Za-z_]+%%/],
  ["*|NAME|* merge tag", /\*\|[A-Z0-9_]+\|\*/],
  ["[INSERT …] authoring placeholder", /\[(INSERT|ADD|YOUR|ENTER|PLACEHOLDER|COMPANY|TBD)[^\]]*\]/i],
  ["TODO/FIXME/TBD marker", /\bTODO:|\bFIXME:|\bTBD\b/],
];

export const noUnrenderedPlaceholders: WebValidation = {
  meta: domCheck({
    id: "no-unrendered-placeholders",
    name: "No unrendered placeholders",
    category: "content",
    severity: "major",
    summary: "Template variables and authoring placeholders are not shown to visitors.",
    judgment:
      "Fails when visible text outside <code>, <pre>, <kbd> and <samp> contains template syntax (`{{ }}`, `{% %}`, `${ }`, `%%X%%`, `*|X|*`), bracketed authoring placeholders (`[INSERT …]`, `[YOUR …]`, `[TBD]`) or `TODO:`/`FIXME:`/`TBD` markers. Code samples may show template syntax.",
    references: [{ title: "Merge tags", url: "https://mailchimp.com/help/all-the-merge-tags-cheat-sheet/" }],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = [];
    for (const block of dom.visibleText) {
      if (block.inCode) continue;
      for (const [label, pattern] of PLACEHOLDERS) {
        const m = block.text.match(pattern);
        if (m) {
          findings.push({ message: `${label} ${quote(m[0])} in ${block.selector}`, selector: block.selector, text: quote(block.text) });
          break;
        }
      }
    }
    if (findings.length === 0) return pass(`Read ${dom.visibleText.length} visible text blocks; no template syntax or placeholder outside code.`);
    return failWith(
      `Fill in or remove ${findings.length} unrendered placeholder(s)`,
      findings,
      `Found template syntax or authoring placeholders in ${findings.length} visible text block(s) outside code.`,
    );
  },
};
