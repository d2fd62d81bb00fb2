import { pass, type EmailValidation, type Finding } from "../types";
import { altLeavesOutText, ocrUnavailable } from "../shared/painted-text";
import { htmlCheck, htmlDomOf, listed } from "./_helpers";

export const emailImageAltText: EmailValidation = {
  meta: htmlCheck({
    id: "email-image-alt-text",
    name: "Image alt text",
    category: "accessibility",
    severity: "major",
    summary:
      'Every <img> in the HTML part has an alt attribute (alt="" for spacers, tracking pixels and decorative images), and an image of text says its words in its alt.',
    judgment:
      'Fails when any <img> in the text/html part has no alt attribute. alt="" passes: it marks a decorative image, spacer or tracking pixel, unless the image is an image of text. The text painted in each image not declared smaller than 64×14px (at most 10 distinct sources, those started within 6 s of reading: data:, the message\'s own cid: parts, remote ones fetched through the network guard) is read by OCR, and an image whose painted text (at least 3 words read with high confidence, covering at least 2% of it) has 3 or more of its words, and at least half, missing from its alt fails; a picture with more than 40 such words is a screenshot or a picture of a page, whose alt may describe it instead. Alt text matters more in email than on the web, because many clients block images by default and show the alt text instead. When the OCR engine cannot run, a message that passes on its HTML is an error, not a pass.',
    needs: ["email-html", "image-text"],
    references: [
      {
        title: "WCAG 2.2 SC 1.1.1 Non-text Content",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content",
      },
      { title: "Email Markup Consortium: accessibility", url: "https://emailmarkup.org/en/guidelines/" },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "no images to describe.");
    if ("outcome" in got) return got.outcome;
    const { images } = got.dom;
    const missing = images.filter((i) => i.alt === null);
    const findings: Finding[] = missing.map((i) => ({
      message: `<img> without alt${i.src ? `: ${i.src}` : ""}`,
      selector: i.selector,
      ...(i.src ? { url: i.src } : {}),
      method: "dom" as const,
    }));
    const described = images.filter((i) => i.alt !== null && i.src);
    const ofText = described.flatMap((i) => altLeavesOutText(i, email.imageText) ?? []);
    const unread = ocrUnavailable(email.imageText);
    if (missing.length === 0 && ofText.length === 0) {
      if (unread && described.length)
        return {
          verdict: "error",
          reason: `Every image has an alt attribute, but whether ${described.length} image(s) are images of text is unknown: ${unread}`,
          reasoning: `All ${images.length} <img> elements have alt; ${unread}.`,
          findings: [],
        };
      const empty = images.filter((i) => i.alt !== null && !i.alt.trim()).length;
      return pass(`All ${images.length} <img> elements have alt (${empty} with alt="", decorative).`);
    }
    const fixes = [
      missing.length
        ? `Add alt text to ${missing.length} of ${images.length} image(s): describe what each shows or says, or use alt="" for purely decorative ones (${listed(missing.map((i) => i.src || i.selector))})`
        : "",
      ofText.length
        ? `Put the words painted in ${ofText.length} image(s) of text in their alt (${listed(ofText.map((f) => f.text ?? ""))})`
        : "",
    ];
    return {
      verdict: "fail",
      reason: fixes.filter(Boolean).join("; "),
      reasoning: `${missing.length} <img> element(s) have no alt attribute; ${images.length - missing.length} do; ${ofText.length} image(s) of text leave their words out of their alt.`,
      findings: [...findings, ...ofText],
    };
  },
};
