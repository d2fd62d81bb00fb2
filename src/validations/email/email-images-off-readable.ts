import type { EmailValidation, Finding } from "../types";
import { because, explained, findingAt, renderCheck, rendersFor, where } from "./_renders";
import { quote } from "../shared/quote";
import { ocrUnavailable, paintedLabel, paintedWords, pictureText, textLost } from "../shared/painted-text";

/** Fewer live words than this, with images in the message, and the message is its images. */
const MIN_WORDS = 20;

export const emailImagesOffReadable: EmailValidation = {
  meta: renderCheck({
    id: "email-images-off-readable",
    name: "Email readable with images off",
    category: "visual",
    severity: "major",
    standard: ["desktop-md"],
    summary:
      "With images blocked, as many clients do by default, the message still says what it is about and where to click.",
    judgment:
      "Every render blocks remote and embedded (cid:) images, as Outlook and many corporate clients do until the reader allows them; a blocked image shows as its alt text or an empty box. The text painted in the images is read by OCR (as for email-image-alt-text). Per selected client (by default Apple Mail at desktop-md), fails when: the message shows fewer than 20 words of live text while it holds images (the message is its pictures); or a linked image has no alt text and its link no text (the link is an invisible blank box; its own link, whatever other links share its href, such as #; the finding names the label painted in it, when one is read); or a blocked image holds text (a headline, an offer: at least 3 words read with high confidence) of which its alt and its link's text leave out 3 or more words and at least half (the images-off view loses it); or blocked images cover more than half of the message while it shows fewer than 50 words. When the OCR engine cannot run, a message that passes otherwise while images are blocked is an error, not a pass.",
    needs: ["render", "email-html", "image-text"],
    references: [
      {
        title: "Litmus: images off in email",
        url: "https://www.litmus.com/blog/the-ultimate-guide-to-email-image-blocking",
      },
    ],
  }),
  evaluate(email) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    const findings: Finding[] = [];
    for (const r of renders.ok) {
      const blocked = r.snapshot.images.filter((i) => !i.loaded && i.source !== "data");
      if (blocked.length === 0) continue;
      const words = r.snapshot.words;
      if (words < MIN_WORDS) {
        findings.push(
          findingAt(r, {
            message: `${r.client.name}: with images off the message shows ${words} word(s) of text (${blocked.length} image(s) blocked)`,
            measured: { words, blockedImages: blocked.length, altWords: r.snapshot.altWords },
            method: "dom",
          }),
        );
      }
      for (const img of blocked) {
        const read = pictureText(email.imageText, img.url);
        if (img.link !== null && !(img.alt ?? "").trim() && !img.linkText) {
          const label = paintedLabel(read) ?? paintedWords(read)?.join(" ");
          findings.push(
            explained(
              r,
              {
                message: `${r.client.name}: a linked image without alt text is a blank box with images off${label ? `, its painted label ${quote(label, 40)} lost` : ""}`,
                selector: img.selector,
                url: img.link,
                ...(label ? { text: label, method: "ocr" as const } : { method: "dom" as const }),
              },
              [img.selector],
              "image",
            ),
          );
          continue;
        }
        const painted = paintedWords(read);
        const lost = textLost(painted, `${img.alt ?? ""} ${img.linkText}`);
        if (painted && lost)
          findings.push(
            findingAt(r, {
              message: `${r.client.name}: with images off, the text painted in an image is lost: ${quote(painted.join(" "), 80)} (its alt ${quote(img.alt ?? "", 40)} shows instead)`,
              selector: img.selector,
              ...(img.source === "remote" ? { url: img.url } : {}),
              text: painted.join(" "),
              method: "ocr",
              measured: { wordsRead: painted.length, wordsMissing: lost.length },
            }),
          );
      }
      const area = (b: { width: number; height: number }) => b.width * b.height;
      const imageArea = blocked.filter((i) => i.shown).reduce((n, i) => n + area(i.box), 0);
      const docArea = r.layout.documentWidth * r.layout.documentHeight;
      if (words < 50 && docArea > 0 && imageArea / docArea > 0.5) {
        findings.push(
          findingAt(r, {
            message: `${r.client.name}: blocked images cover ${Math.round((imageArea / docArea) * 100)}% of the message, which shows ${words} words`,
            measured: { imageShare: Math.round((imageArea / docArea) * 100) / 100, words },
            method: "dom",
          }),
        );
      }
    }
    const seen = renders.ok
      .map(
        (r) =>
          `${where(r)}: ${r.snapshot.words} words, ${r.snapshot.images.filter((i) => !i.loaded).length} image(s) blocked`,
      )
      .join("; ");
    const unread = ocrUnavailable(email.imageText);
    const anyBlocked = renders.ok.some((r) => r.snapshot.images.some((i) => !i.loaded && i.source !== "data"));
    if (findings.length === 0 && unread && anyBlocked)
      return {
        verdict: "error",
        reason: `Whether the blocked images hold text the images-off view loses is unknown: ${unread}`,
        reasoning: `With images off: ${seen}; ${unread}.`,
        findings: [],
      };
    if (findings.length === 0)
      return { verdict: "pass", reasoning: `With images off the message still reads: ${seen}.`, findings: [] };
    return {
      verdict: "fail",
      reason: `${findings[0]!.message}: put the message and its call to action in live text, and give every image that carries meaning alt text${because(findings)}`,
      reasoning: `Rendered with images blocked (${seen}): ${findings.length} problem(s).`,
      findings,
    };
  },
};
