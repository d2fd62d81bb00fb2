import { failWith, pass, type WebValidation } from "../types";
import type { ControlInfo } from "../../capture/artifacts";
import { boxMeasure, layoutAt, visualCheck } from "./_helpers";
import { quote } from "../shared/quote";

const MIN = 24;

/**
 * WCAG 2.5.8: an undersized target passes if a 24px circle on its centre touches no other target (whatever its
 * size) and no other undersized target's circle.
 */
function spacedEnough(t: ControlInfo, others: ControlInfo[]): boolean {
  const cx = t.box.x + t.box.width / 2;
  const cy = t.box.y + t.box.height / 2;
  return others.every((o) => {
    if (o === t) return true;
    const nx = Math.max(o.box.x, Math.min(cx, o.box.x + o.box.width));
    const ny = Math.max(o.box.y, Math.min(cy, o.box.y + o.box.height));
    const clearsTarget = Math.hypot(cx - nx, cy - ny) >= MIN / 2;
    const undersized = o.box.width < MIN || o.box.height < MIN;
    if (!undersized) return clearsTarget;
    return clearsTarget && Math.hypot(cx - (o.box.x + o.box.width / 2), cy - (o.box.y + o.box.height / 2)) >= MIN;
  });
}

export const tapTargets: WebValidation = {
  meta: visualCheck({
    id: "tap-targets",
    name: "Tap targets big enough",
    category: "mobile",
    severity: "minor",
    standard: ["mobile-sm"],
    summary:
      "At phone size every link and button is at least 24×24px, or spaced so a fingertip cannot hit a neighbour (WCAG 2.5.8).",
    judgment:
      "At mobile-sm, each visible link, button and form control must be at least 24×24 CSS pixels, or be undersized but spaced so that a 24px circle centred on it does not touch another target (or another undersized target's circle). Links inside a sentence (a block with text of its own, not only other links separated by spaces) are exempt.",
    references: [
      {
        title: "WCAG 2.2 SC 2.5.8 Target Size (Minimum)",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/target-size-minimum",
      },
    ],
  }),
  evaluate(artifacts) {
    const layout = layoutAt(artifacts, "mobile-sm");
    const targets = layout.controls.filter((c) => c.shown && !c.inline);
    const failing = targets.filter((t) => (t.box.width < MIN || t.box.height < MIN) && !spacedEnough(t, targets));
    if (failing.length === 0)
      return pass(`All ${targets.length} tap target(s) at mobile-sm are at least ${MIN}×${MIN}px or spaced apart.`);
    return failWith(
      `Make ${failing.length} tap target(s) at least ${MIN}×${MIN}px or move them apart`,
      failing.map((t) => ({
        message: `${quote(t.text || t.tag, 30)} is ${Math.round(t.box.width)}×${Math.round(t.box.height)}px and crowded`,
        selector: t.selector,
        viewport: "mobile-sm",
        measured: { width: Math.round(t.box.width), height: Math.round(t.box.height), box: boxMeasure(t.box) },
      })),
      `${failing.length} of ${targets.length} tap target(s) at mobile-sm are under ${MIN}×${MIN}px with a neighbour within reach.`,
    );
  },
};
