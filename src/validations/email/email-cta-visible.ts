import type { EmailValidation, Finding } from "../types";
import type { EmailRender } from "../../capture/mail-clients/render";
import { isSocialLink } from "../shared/social";
import { because, explained, renderCheck, rendersFor, where, type Aspect } from "./_renders";
import { quote } from "../shared/quote";
import type { ImageTexts } from "../../capture/image-text";
import { paintedLabel, pictureText } from "../shared/painted-text";

const MIN_CONTRAST = 3;

type Link = EmailRender["snapshot"]["links"][number];
/** The primary call to action: a link, its label as a reader sees it (its text, or the words painted in its image). */
type Cta = Link & { label: string; painted: boolean };

/**
 * The primary call to action of a render: the largest button-styled link or link around an image with a label
 * painted in it (read by OCR), else the largest linked image of at least 40×20px; links to social networks ("follow
 * us" icons) only when nothing else qualifies. A link that shows nothing (no text, no image) is none.
 */
function primary(r: EmailRender, texts: ImageTexts | undefined): Cta | undefined {
  const bigImages = r.snapshot.images.filter((i) => i.link !== null && i.box.width >= 40 && i.box.height >= 20);
  // An image belongs to the link it lies in: by href and box, since many links may share href="#".
  const imageOf = (l: Link) =>
    bigImages.find(
      (i) =>
        i.link === l.href &&
        i.box.x >= l.box.x - 1 &&
        i.box.y >= l.box.y - 1 &&
        i.box.x + i.box.width <= l.box.x + l.box.width + 1 &&
        i.box.y + i.box.height <= l.box.y + l.box.height + 1,
    );
  let best: Cta | undefined;
  let bestRank = -1;
  for (const l of r.snapshot.links) {
    const image = imageOf(l);
    const painted = image ? paintedLabel(pictureText(texts, image.url)) : null;
    if (!l.buttonStyled && !image) continue;
    if (!l.text.trim() && !image) continue;
    if (/unsubscribe|preferences|view (it )?in (your )?browser/i.test(l.text)) continue;
    const rank = isSocialLink(l.href, l.text) ? 0 : l.buttonStyled || painted ? 2 : 1;
    const area = (x: Link) => x.box.width * x.box.height;
    if (!best || rank > bestRank || (rank === bestRank && area(l) > area(best))) {
      best = { ...l, label: l.text.trim() || painted || "", painted: !!painted && !l.text.trim() };
      bestRank = rank;
    }
  }
  return best;
}

export const emailCtaVisible: EmailValidation = {
  meta: renderCheck({
    id: "email-cta-visible",
    name: "Email call to action visible",
    category: "visual",
    severity: "major",
    standard: ["mobile-sm", "desktop-md"],
    summary: "The main button is there, on screen and readable in every mail client rendered, images off included.",
    judgment:
      "The primary call to action is the largest button-styled link (a background colour or image, a border, a coloured cell, table or wrapper around it alone, or an element inside it holding its text that paints a background or border; whatever its href, # included) or link around an image whose label is painted in it (one to six words read by OCR with high confidence), else the largest linked image of at least 40×20px; links to social networks (by their site, or text or alt that is only a network's name) rank below both, and a link that shows nothing (no text, no image) is none. It is found in the first render (by default Apple Mail at mobile-sm, then desktop-md) and followed by its href through every render (among links sharing the href, such as #, the one with its text). Its contrast is that of the element holding its text (a span or cell inside the link) against what is behind that text. Fails when, in a render, it is gone or hidden, less than half of it lies within the client's width, it shows no text (an image button without alt text, with images blocked: the finding names the label painted in it), or its text has less than 3:1 contrast against what is behind it (white text on a background image that is blocked). A message with no such link passes. When what a client's profile did to the message (a declaration, rule, media query or style block it dropped, Word's layout limits) applied to the call to action or its ancestors and bears on the fault (its display, size, colours or image), the reason cites it with its rule and source.",
    needs: ["render", "email-html", "image-text"],
    references: [
      {
        title: "Litmus: bulletproof buttons",
        url: "https://www.litmus.com/blog/a-guide-to-bulletproof-buttons-in-email-design",
      },
    ],
  }),
  evaluate(email) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    let cta: Cta | undefined;
    let from: EmailRender | undefined;
    for (const r of renders.ok) {
      cta = primary(r, email.imageText);
      if (cta) {
        from = r;
        break;
      }
    }
    if (!cta || !from)
      return {
        verdict: "pass",
        reasoning: `No button-styled link or linked image in ${renders.ok.map(where).join(", ")}: there is no call to action to follow.`,
        findings: [],
      };
    const findings: Finding[] = [];
    for (const r of renders.ok) {
      // Many links may share an href ("#"): the call to action is the one with its text, else the largest.
      const sameHref = r.snapshot.links
        .filter((l) => l.href === cta!.href)
        .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
      const same = sameHref.find((l) => l.text === cta!.text) ?? sameHref[0];
      const [why, aspect]: [string, Aspect | null] | [null, null] = !same
        ? ["it is gone", null]
        : !same.shown
          ? ["it is hidden", "visibility"]
          : same.visibleShare < 0.5
            ? [`only ${Math.round(same.visibleShare * 100)}% of it is within the ${r.client.width}px width`, "width"]
            : !same.text.trim()
              ? [
                  cta.painted
                    ? `it shows no text: its label ${quote(cta.label, 30)} is painted in an image without alt text, and images are blocked`
                    : "it shows no text: an image without alt text, and images are blocked",
                  "image",
                ]
              : same.contrast !== null && same.contrast < MIN_CONTRAST
                ? [
                    `its text ${quote(same.text, 30)} has ${same.contrast.toFixed(2)}:1 contrast against what is behind it`,
                    "colour",
                  ]
                : [null, null];
      if (why)
        findings.push(
          explained(
            r,
            {
              message: `${r.client.name}: ${why}`,
              selector: same?.selector ?? cta.selector,
              url: cta.href,
              measured: same ? { visibleShare: same.visibleShare, contrast: same.contrast } : {},
              method: cta.painted ? "ocr" : "dom",
            },
            // A call to action that is gone has no element here for a change to apply to.
            aspect && same ? [same.selector] : [],
            aspect ?? "visibility",
          ),
        );
    }
    const label = quote(cta.label || cta.href, 40);
    if (findings.length === 0)
      return {
        verdict: "pass",
        reasoning: `The call to action ${label} (${cta.href}) is visible and readable in ${renders.ok.map(where).join(", ")}.`,
        findings: [],
      };
    return {
      verdict: "fail",
      reason: `Make the call to action ${label} visible in ${findings.map((f) => f.message.split(":")[0]).join(", ")}: ${findings[0]!.message.split(": ").slice(1).join(": ")}${because(findings)}`,
      reasoning: `Primary call to action in ${where(from)}: ${cta.selector} → ${cta.href}; not visible or readable in ${findings.length} render(s).`,
      findings,
    };
  },
};
