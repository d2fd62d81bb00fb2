import { pass, type EmailValidation, type Finding } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, plainPart } from "./_helpers";
import { quote } from "../shared/quote";
import { findTemplateSyntax } from "../shared/template-syntax";

function firstTag(text: string): { label: string; match: string; context: string } | null {
  const found = findTemplateSyntax(text);
  if (!found) return null;
  const start = Math.max(0, found.index - 30);
  const context = text
    .slice(start, found.index + found.match.length + 30)
    .replace(/\s+/g, " ")
    .trim();
  return { label: found.label, match: found.match, context };
}

export const emailNoMergeTags: EmailValidation = {
  meta: htmlCheck({
    id: "email-no-merge-tags",
    name: "No unrendered merge tags",
    category: "content",
    severity: "critical",
    summary:
      "No merge tag or template variable reaches the reader unrendered: `*|FNAME|*`, `{{ name }}`, `{% tag %}`, `%%Name%%`, `${name}`, `{$name}`, `[% name %]`, `<%= name %>`, `[[FIELD]]`, `[FIELD_NAME]`, `[FirstName]`, `<First Name>`, `[firstname,fallback=]`.",
    judgment:
      "Fails when the decoded subject, the preheader, the visible text of the HTML part outside <code> and <pre>, or the text/plain part (leaving out lines indented by 4 or more spaces or a tab, the plain-text convention for code samples) contains template syntax by its shape, whatever the field is called: `*|X|*`, `{{…}}`, `{%…%}`, `{$x}`, `${…}`, `%%X%%`, `[%…%]`, `<%…%>`, `<$…$>`, `[[X]]`, a bracketed all-caps field of four or more letters (`[HEADLINE]`, `[POSTAL_ADDRESS]`), a bracketed camelCase, PascalCase or snake_case field (`[FirstName]`, `[first_name]`), a field in angle brackets shown as text (`<First Name>`, `<FIRSTNAME>`, `<first_name>`), a Campaign Monitor `[x,fallback=]` tag or an `[INSERT …]`-style authoring placeholder. Bracketed prose is not a field: numbers (`[1]`), lower-case or capitalised words (`[sic]`, `[Updated]`), abbreviations of up to three letters (`[PDF]`), content and subject-line labels (`[VIDEO]`, `[UPDATED]`, `[SOLD OUT]`, `[LAST CHANCE]`) and product names (`[iPhone]`). Angle brackets in prose are not a field either: `a < b`, `<3`, `->`, an address (`<info@example.com>`, `<https://…>`), a lone lower-case word (`<br>`), keys (`<ENTER>`, `<Page Down>`) and abbreviations (`<PDF>`). Attributes, comments and <title> are not read (not visible); template syntax shown as code passes.",
    references: [
      {
        title: "Mailchimp: All the merge tags cheat sheet",
        url: "https://mailchimp.com/help/all-the-merge-tags-cheat-sheet/",
      },
    ],
  }),
  evaluate(email) {
    const findings: Finding[] = [];
    const read: string[] = [];
    const look = (where: string, text: string, selector?: string) => {
      read.push(where);
      const tag = firstTag(text);
      if (tag)
        findings.push({
          message: `${tag.label} ${JSON.stringify(tag.match)} in the ${where}`,
          text: tag.context,
          ...(selector ? { selector } : {}),
        });
    };
    if (email.subject) look("subject", email.subject);
    if (hasHtmlPart(email)) {
      const got = htmlDomOf(email, "");
      if ("outcome" in got) return got.outcome;
      if (got.dom.preheader) look("preheader", got.dom.preheader.text, got.dom.preheader.selector);
      // Where in the HTML: the first element outside code whose own text holds a tag.
      const run = got.dom.textRuns.find((r) => !r.inCode && firstTag(r.text));
      look("HTML body", got.dom.visibleTextOutsideCode, run?.selector);
    }
    const plain = plainPart(email);
    if (plain !== null)
      look(
        "text/plain part",
        plain
          .split(/\r?\n/)
          .filter((l) => !/^( {4,}|\t)/.test(l))
          .join("\n"),
      );
    if (findings.length === 0)
      return pass(`No merge tag or template syntax in the ${read.join(", ")} (code samples excluded).`);
    return {
      verdict: "fail",
      reason: `Render or remove the merge tags before sending (check the ESP's field names and fallback values): ${findings.map((f) => `${f.message}${f.selector ? ` at ${f.selector}` : ""}, ${quote(f.text ?? "", 70)}`).join("; ")}`,
      reasoning: `Found unrendered template syntax in ${findings.length} place(s) the reader sees (${read.join(", ")} read; code samples excluded).`,
      findings,
    };
  },
};
