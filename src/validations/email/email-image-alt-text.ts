import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf, listed } from "./_helpers";

export const emailImageAltText: EmailValidation = {
  meta: htmlCheck({
    id: "email-image-alt-text",
    name: "Image alt text",
    category: "accessibility",
    severity: "major",
    summary:
      'Every <img> in the HTML part has an alt attribute (alt="" for spacers, tracking pixels and decorative images).',
    judgment:
      'Fails when any <img> in the text/html part has no alt attribute. alt="" passes: it marks a decorative image, spacer or tracking pixel. Alt text matters more in email than on the web, because many clients block images by default and show the alt text instead.',
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
    if (missing.length === 0) {
      const empty = images.filter((i) => i.alt !== null && !i.alt.trim()).length;
      return pass(`All ${images.length} <img> elements have alt (${empty} with alt="", decorative).`);
    }
    return {
      verdict: "fail",
      reason: `Add alt text to ${missing.length} of ${images.length} image(s): describe what each shows or says, or use alt="" for purely decorative ones (${listed(missing.map((i) => i.src || i.selector))})`,
      reasoning: `${missing.length} <img> element(s) have no alt attribute; ${images.length - missing.length} do.`,
      findings: missing.map((i) => ({
        message: `<img> without alt${i.src ? `: ${i.src}` : ""}`,
        selector: i.selector,
        ...(i.src ? { url: i.src } : {}),
      })),
    };
  },
};
