import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck, quote } from "./_helpers";
import { findFillerText } from "../shared/filler-text";

export const noLoremIpsum: WebValidation = {
  meta: domCheck({
    id: "no-lorem-ipsum",
    name: "No lorem ipsum",
    category: "content",
    severity: "major",
    summary: "Latin filler text is not left in the visible page.",
    judgment:
      "Fails when a visible text block holds Latin placeholder copy, found by its vocabulary: among any 8 consecutive words (or a shorter block's words), at least 3 and three quarters are lorem-ipsum generator words (words that are also everyday English, such as 'in', 'sit' or 'non', count for neither side), or it contains 'lorem ipsum', 'dolor sit amet' or 'consectetur adipiscing' (any case). A Latin motto or phrase ('et cetera', 'Semper fidelis') is not filler. Hidden elements, scripts, styles, templates, comments and attribute values are not read.",
    references: [{ title: "Lorem ipsum (Wikipedia)", url: "https://en.wikipedia.org/wiki/Lorem_ipsum" }],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = dom.visibleText
      .filter((b) => findFillerText(b.text))
      .map((b) => ({ message: `Filler text in ${b.selector}`, selector: b.selector, text: quote(b.text) }));
    if (findings.length === 0) return pass(`Read ${dom.visibleText.length} visible text blocks; none contains filler text.`);
    return failWith(
      `Replace the placeholder Latin text with real copy in ${findings.length} place(s)`,
      findings,
      `Found filler text in ${findings.length} of ${dom.visibleText.length} visible text blocks.`,
    );
  },
};
