import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";

export const headingOrder: WebValidation = {
  meta: domCheck({
    id: "heading-order",
    name: "Heading levels do not skip",
    category: "structure",
    severity: "minor",
    summary: "Headings descend one level at a time (h2 then h3, never h2 then h4).",
    judgment:
      "Walks h1–h6 in document order and fails when a heading is more than one level deeper than the one before (h1 then h3). The first heading is not compared; going back up any number of levels is fine.",
    references: [
      {
        title: "WCAG 2.2 SC 1.3.1 Info and Relationships",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/info-and-relationships",
      },
    ],
  }),
  evaluate(artifacts) {
    const headings = domAt(artifacts).headings;
    const findings = [];
    for (let i = 1; i < headings.length; i++) {
      const prev = headings[i - 1]!;
      const h = headings[i]!;
      if (h.level > prev.level + 1) {
        findings.push({
          message: `h${h.level} ${quote(h.text)} follows h${prev.level} ${quote(prev.text)}`,
          selector: h.selector,
          measured: { previousLevel: prev.level, level: h.level },
        });
      }
    }
    if (findings.length === 0)
      return pass(`${headings.length} heading(s) in order: ${headings.map((h) => `h${h.level}`).join(" ") || "none"}.`);
    return failWith(
      `Change ${findings.length} heading(s) so no level is skipped`,
      findings,
      `Heading levels in order: ${headings.map((h) => `h${h.level}`).join(" ")}; ${findings.length} skip(s) a level.`,
    );
  },
};
