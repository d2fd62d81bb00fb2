import { pass, type WebValidation } from "../types";
import type { ControlInfo, LayoutSnapshot, WebArtifacts } from "../../capture/artifacts";
import { paintedLabel, pictureText } from "../shared/painted-text";
import { isSocialLink } from "../shared/social";
import { boxMeasure, layoutAt, visualCheck } from "./_helpers";
import { quote } from "../shared/quote";

/** A call to action: a control, and its label as a reader sees it (its text, or the words painted in its picture). */
export type Cta = ControlInfo & { label: string; painted: boolean };

/**
 * The primary call to action: the largest button-styled control, or link or button around a picture with a label
 * painted in it (read by OCR: image-text), whose top is above the desktop fold and which shows a label (an empty
 * `<button></button>` is no call to action); links to social networks ("follow us" icons) only when nothing else
 * qualifies.
 */
export function primaryCta(desktop: LayoutSnapshot, imageText?: WebArtifacts["imageText"]): Cta | undefined {
  const fold = desktop.viewport.height;
  // A navigation's current item (highlighted where the reader is) is never the call to action: it ranks below
  // every other control, and when it is the best there is, there is none (the return below).
  const rank = (c: ControlInfo) => (c.currentNavItem ? -1 : isSocialLink(c.href, c.text) ? 0 : 1);
  const area = (c: ControlInfo) => c.box.width * c.box.height;
  let best: Cta | undefined;
  for (const c of desktop.controls) {
    if (!c.shown || c.box.y >= fold) continue;
    if (!["a", "button"].includes(c.tag) && !(c.tag === "input" && c.type === "submit")) continue;
    const picture = imageText?.pictures.find((p) => p.control === c.selector);
    const painted = picture ? paintedLabel(pictureText(imageText?.texts, picture.src)) : null;
    if (!c.buttonStyled && !painted) continue;
    const label = c.text.trim() || painted;
    if (!label) continue;
    if (!best || rank(c) > rank(best) || (rank(c) === rank(best) && area(c) > area(best)))
      best = { ...c, label, painted: !c.text.trim() };
  }
  return best?.currentNavItem ? undefined : best;
}

export const ctaVisible: WebValidation = {
  meta: visualCheck({
    id: "cta-visible",
    name: "Call to action visible",
    category: "visual",
    severity: "major",
    standard: ["mobile-sm", "tablet-portrait", "desktop-md"],
    summary: "The primary call to action, found above the fold at desktop width, is on screen at every size.",
    judgment:
      "The primary call to action is the largest button-styled link or button (a background unlike its parent's, a border, a coloured cell, table or wrapper around it alone, or an element inside it holding its text that paints a background or border: the button drawn on a span in a link; whatever its href, # included), or link or button around a picture whose label is painted in it (one to six words read by OCR with high confidence), whose top is above the fold at 1280×800 and which shows a label: an empty `<button></button>` (no text, no accessible name, no painted label) is none. Links to social networks (by their site, or text that is only a network's name) rank below the others. A navigation's current item is never the call to action, however it is highlighted: a control marked aria-current, or a link in a navigation landmark (<nav>, role=navigation) to the page itself or marked active (class \"active\"), such as a sidebar's highlighted link to the current page; a button in a navbar still counts. Fails when, at another captured size, that element is hidden (display:none, visibility:hidden, opacity 0, no area) or less than half of it lies within the viewport's width. Pages with no such control above the fold pass.",
    needs: ["layout", "screenshot", "image-text"],
    references: [
      { title: "Nielsen Norman Group: the fold", url: "https://www.nngroup.com/articles/page-fold-manifesto/" },
    ],
  }),
  evaluate(artifacts) {
    const desktop = layoutAt(artifacts, "desktop-md");
    const cta = primaryCta(desktop, artifacts.imageText);
    if (!cta)
      return pass(
        "No button-styled call to action above the fold at desktop-md, so there is nothing to follow across sizes.",
      );
    const findings = [];
    for (const [size, layout] of Object.entries(artifacts.layout ?? {})) {
      if (size === "desktop-md" || !layout) continue;
      const same = layout.controls.find((c) => c.selector === cta.selector);
      const width = layout.viewport.width;
      const inside = same ? Math.max(0, Math.min(same.box.x + same.box.width, width) - Math.max(same.box.x, 0)) : 0;
      const share = same && same.box.width > 0 ? inside / same.box.width : 0;
      if (!same?.shown || share < 0.5) {
        const why = !same
          ? "it is gone from the page"
          : !same.shown
            ? `it is hidden (display:${same.display}, visibility:${same.visibility}, opacity ${same.opacity})`
            : `only ${Math.round(share * 100)}% of it is within the ${width}px width`;
        findings.push({
          message: `${quote(cta.label, 40)} at ${size}: ${why}`,
          selector: cta.selector,
          viewport: size,
          method: cta.painted ? ("ocr" as const) : ("dom" as const),
          measured: {
            visibleShare: Math.round(share * 100) / 100,
            ...(same?.shown ? { box: boxMeasure(same.box) } : {}),
          },
        });
      }
    }
    if (findings.length === 0)
      return pass(
        `The primary call to action ${quote(cta.label, 40)} (${cta.selector}) is visible at every captured size.`,
      );
    return {
      verdict: "fail",
      reason: `Show the primary call to action ${quote(cta.label, 40)} (${cta.selector}) at ${findings.map((f) => f.viewport).join(" and ")}: ${findings[0]!.message.split(": ").slice(1).join(": ")}`,
      reasoning: `Primary CTA at desktop-md: ${cta.selector}, ${Math.round(cta.box.width)}×${Math.round(cta.box.height)}px at y=${Math.round(cta.box.y)}; not visible at ${findings.length} other size(s).`,
      findings,
    };
  },
};
