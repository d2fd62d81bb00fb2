import { pass, type WebValidation } from "../types";
import { layoutAt, visualCheck } from "./_helpers";

export const noHorizontalOverflow: WebValidation = {
  meta: visualCheck({
    id: "no-horizontal-overflow",
    name: "No sideways scrolling on phones",
    category: "mobile",
    severity: "major",
    standard: ["mobile-sm"],
    summary: "At 375px the page is no wider than the screen, so nobody has to scroll sideways.",
    judgment:
      "Rendered at mobile-sm (375×667 CSS pixels, layout width 375, no device scaling). Fails when the document is wider than the viewport (document.documentElement.scrollWidth > 375), naming the outermost elements that stick out.",
    engines: ["chromium", "webkit", "gecko"],
    references: [{ title: "WCAG 2.2 SC 1.4.10 Reflow", url: "https://www.w3.org/WAI/WCAG22/Understanding/reflow" }],
  }),
  evaluate(artifacts) {
    const layout = layoutAt(artifacts, "mobile-sm");
    const limit = layout.viewport.width;
    if (layout.documentWidth <= limit)
      return pass(`At mobile-sm the document is ${layout.documentWidth}px wide, within the ${limit}px viewport.`);
    const culprits = layout.overflowing.slice(0, 5);
    return {
      verdict: "fail",
      reason: `At ${limit}px the page is ${layout.documentWidth}px wide; make ${culprits[0]?.selector ?? "the widest element"} fit (max-width: 100%, or a media query)`,
      reasoning: `document scrollWidth ${layout.documentWidth}px > viewport ${limit}px at mobile-sm; ${layout.overflowing.length} element(s) reach past the right edge.`,
      findings: culprits.map((c) => ({
        message: `${c.width}px wide, right edge at ${c.right}px`,
        selector: c.selector,
        viewport: "mobile-sm",
        measured: { right: c.right, width: c.width },
      })),
    };
  },
};
