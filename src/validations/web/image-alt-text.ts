import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const imageAltText: WebValidation = {
  meta: domCheck({
    id: "image-alt-text",
    name: "Images have alt text",
    category: "accessibility",
    severity: "major",
    summary: "Every <img> and <input type=image> has an alt attribute.",
    judgment:
      'Fails when an <img> or <input type=image> has no alt attribute at all. alt="" is correct for decorative images and passes.',
    references: [
      {
        title: "WCAG 2.2 SC 1.1.1 Non-text Content",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content",
      },
      { title: "W3C alt decision tree", url: "https://www.w3.org/WAI/tutorials/images/decision-tree/" },
    ],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings = dom.images
      .filter((i) => !i.hasAlt)
      .map((i) => ({
        message: `${i.tag === "img" ? "<img>" : "<input type=image>"} without alt`,
        selector: i.selector,
        url: i.src || undefined,
      }));
    if (findings.length === 0) return pass(`All ${dom.images.length} image element(s) have an alt attribute.`);
    return failWith(
      `Add an alt attribute to ${findings.length} image(s): describe the image, or alt="" if it is decorative`,
      findings,
      `${findings.length} of ${dom.images.length} image element(s) have no alt attribute.`,
    );
  },
};
