import { failWith, pass, type Finding, type WebValidation } from "../types";
import { altLeavesOutText, ocrUnavailable } from "../shared/painted-text";
import { domAt, domCheck } from "./_helpers";

export const imageAltText: WebValidation = {
  meta: domCheck({
    id: "image-alt-text",
    name: "Images have alt text",
    category: "accessibility",
    severity: "major",
    summary: "Every <img> and <input type=image> has an alt attribute, and an image of text says its words in its alt.",
    judgment:
      'Fails when an <img> or <input type=image> has no alt attribute at all. alt="" is correct for decorative images and passes, unless the image is an image of text: the text painted in each shown image of at least 64×14px (at most 10 distinct images, those started within 6 s of reading) is read by OCR, and an image whose painted text (at least 3 words read with high confidence, covering at least 2% of it) has 3 or more of its words, and at least half, missing from its alt fails; a picture with more than 40 such words is a screenshot or a picture of a page, whose alt may describe it instead. Photographs with a stray letter or a distant sign hold no text by that rule. When the OCR engine cannot run, a page that passes on its DOM is an error, not a pass.',
    needs: ["dom", "image-text"],
    references: [
      {
        title: "WCAG 2.2 SC 1.1.1 Non-text Content",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content",
      },
      { title: "WCAG 2.2 SC 1.4.5 Images of Text", url: "https://www.w3.org/WAI/WCAG22/Understanding/images-of-text" },
      { title: "W3C alt decision tree", url: "https://www.w3.org/WAI/tutorials/images/decision-tree/" },
    ],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const findings: Finding[] = dom.images
      .filter((i) => !i.hasAlt)
      .map((i) => ({
        message: `${i.tag === "img" ? "<img>" : "<input type=image>"} without alt`,
        selector: i.selector,
        url: i.src || undefined,
        method: "dom" as const,
      }));
    const { pictures = [], texts } = artifacts.imageText ?? {};
    const described = pictures.filter((p) => p.alt !== null);
    findings.push(...described.flatMap((p) => altLeavesOutText(p, texts) ?? []));
    const unread = ocrUnavailable(texts);
    const readNote = texts
      ? ` Text read by OCR in ${Object.values(texts.read).filter((r) => "words" in r).length} image(s)${texts.skipped ? `, ${texts.skipped} more not read (cap)` : ""}.`
      : "";
    if (findings.length === 0) {
      if (unread && described.length)
        return {
          verdict: "error",
          reason: `Every image has an alt attribute, but whether ${described.length} image(s) are images of text is unknown: ${unread}`,
          reasoning: `All ${dom.images.length} image element(s) have an alt attribute; ${unread}.`,
          findings: [],
        };
      return pass(`All ${dom.images.length} image element(s) have an alt attribute.${readNote}`);
    }
    const noAlt = findings.filter((f) => f.method === "dom").length;
    const ofText = findings.length - noAlt;
    return failWith(
      [
        noAlt ? `Add an alt attribute to ${noAlt} image(s): describe the image, or alt="" if it is decorative` : "",
        ofText ? `Put the words painted in ${ofText} image(s) of text in their alt` : "",
      ]
        .filter(Boolean)
        .join("; "),
      findings,
      `${noAlt} of ${dom.images.length} image element(s) have no alt attribute; ${ofText} image(s) of text leave their words out of their alt.${readNote}`,
    );
  },
};
