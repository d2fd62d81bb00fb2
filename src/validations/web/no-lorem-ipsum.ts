import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";
import { findFillerText } from "../shared/filler-text";

export const noLoremIpsum: WebValidation = {
  meta: domCheck({
    id: "no-lorem-ipsum",
    name: "No Latin filler text",
    category: "content",
    severity: "major",
    summary: "Latin filler text is not left in the visible page.",
    judgment:
      "Fails when a visible text block holds Latin placeholder copy, found by its vocabulary: among any 8 consecutive words (or a shorter block's words), at least 3 and three quarters are words of the Latin generators (words that are also everyday English, such as `in`, `sit` or `non`, count for neither side), or it contains `lorem ipsum`, `dolor sit amet` or `consectetur adipiscing` (any case). A Latin motto or phrase (`et cetera`, `Semper fidelis`) is not filler. Hidden elements, scripts, styles, templates, comments and attribute values are not read, nor text in code, pre, kbd or samp elements (a page quoting filler as an example has not left it in).",
    references: [{ title: "Wikipedia: Latin placeholder text", url: "https://en.wikipedia.org/wiki/Lorem_ipsum" }],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = dom.visibleText
      .filter((b) => !b.inCode && findFillerText(b.text))
      .map((b) => ({ message: `Filler text in ${b.selector}`, selector: b.selector, text: quote(b.text) }));
    if (findings.length === 0)
      return pass(`Read ${dom.visibleText.length} visible text blocks; none contains filler text.`);
    return failWith(
      `Replace the placeholder Latin text with real copy in ${findings.length} place(s)`,
      findings,
      `Found filler text in ${findings.length} of ${dom.visibleText.length} visible text blocks.`,
    );
  },
};
