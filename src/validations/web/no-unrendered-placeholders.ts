import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";
import { findTemplateSyntax } from "../shared/template-syntax";

/** Authoring markers left in the copy (template syntax is findTemplateSyntax's). */
const AUTHORING_MARKER = /\bTODO:|\bFIXME:|\bTBD\b/;

function firstPlaceholder(text: string): { label: string; match: string } | null {
  const syntax = findTemplateSyntax(text);
  if (syntax) return syntax;
  const marker = AUTHORING_MARKER.exec(text);
  return marker ? { label: "TODO/FIXME/TBD marker", match: marker[0] } : null;
}

export const noUnrenderedPlaceholders: WebValidation = {
  meta: domCheck({
    id: "no-unrendered-placeholders",
    name: "No unrendered placeholders",
    category: "content",
    severity: "major",
    summary: "Template variables and authoring placeholders are not shown to visitors.",
    judgment:
      "Fails when visible text outside <code>, <pre>, <kbd> and <samp> contains template syntax by its shape, whatever the field is called: `{{ }}`, `{% %}`, `{$x}`, `${ }`, `%%X%%`, `*|X|*`, `[% %]`, `<% %>`, `<$ $>`, `[[X]]`, a bracketed all-caps field of four or more letters (`[HEADLINE]`, `[POSTAL_ADDRESS]`), a bracketed camelCase, PascalCase or snake_case field (`[FirstName]`, `[first_name]`), a field in angle brackets shown as text (`<First Name>`, `<FIRSTNAME>`, `<first_name>`), a Campaign Monitor `[x,fallback=]` tag, a bracketed authoring placeholder (`[INSERT …]`, `[YOUR …]`) or a `TODO:`/`FIXME:`/`TBD` marker. Bracketed prose is not a field: numbers (`[1]`), lower-case or capitalised words (`[sic]`, `[Updated]`), abbreviations of up to three letters (`[PDF]`), content and subject-line labels (`[VIDEO]`, `[UPDATED]`, `[SOLD OUT]`, `[LAST CHANCE]`) and product names (`[iPhone]`). Angle brackets in prose are not a field either: `a < b`, `<3`, `->`, an address (`<info@example.com>`, `<https://…>`), a lone lower-case word (`<br>`), keys (`<ENTER>`, `<Page Down>`) and abbreviations (`<PDF>`). Attributes, comments and <title> are not visible text; code samples may show template syntax.",
    references: [{ title: "Merge tags", url: "https://mailchimp.com/help/all-the-merge-tags-cheat-sheet/" }],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = [];
    for (const block of dom.visibleText) {
      if (block.inCode) continue;
      const found = firstPlaceholder(block.text);
      if (found)
        findings.push({
          message: `${found.label} ${quote(found.match)} in ${block.selector}`,
          selector: block.selector,
          text: quote(block.text),
        });
    }
    if (findings.length === 0)
      return pass(
        `Read ${dom.visibleText.length} visible text blocks; no template syntax or placeholder outside code.`,
      );
    return failWith(
      `Fill in or remove ${findings.length} unrendered placeholder(s)`,
      findings,
      `Found template syntax or authoring placeholders in ${findings.length} visible text block(s) outside code.`,
    );
  },
};
