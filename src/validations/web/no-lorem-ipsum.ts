import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck, quote } from "./_helpers";
import { LOREM } from "../shared/patterns";

export const noLoremIpsum: WebValidation = {
  meta: domCheck({
    id: "no-lorem-ipsum",
    name: "No lorem ipsum",
    category: "content",
    severity: "major",
    summary: "Latin filler text is not left in the visible page.",
    judgment:
      "Fails when visible text contains 'lorem ipsum', 'dolor sit amet' or 'consectetur adipiscing' (any case). Hidden elements, scripts, styles, templates, comments and attribute values are not read.",
    references: [{ title: "Lorem ipsum (Wikipedia)", url: "https://en.wikipedia.org/wiki/Lorem_ipsum" }],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = dom.visibleText
      .filter((b) => LOREM.test(b.text))
      .map((b) => ({ message: `Filler text in ${b.selector}`, selector: b.selector, text: quote(b.text) }));
    if (findings.length === 0) return pass(`Read ${dom.visibleText.length} visible text blocks; none contains filler text.`);
    return failWith(
      `Replace the placeholder Latin text with real copy in ${findings.length} place(s)`,
      findings,
      `Found filler text in ${findings.length} of ${dom.visibleText.length} visible text blocks.`,
    );
  },
};
