import { pass, type WebValidation } from "../types";
import type { CaptureSize } from "../../capture/vocabulary";
import { layoutAt, visualCheck } from "./_helpers";
import { quote } from "../shared/quote";
import { primaryCta } from "./cta-visible";

export const responsiveConsistency: WebValidation = {
  meta: visualCheck({
    id: "responsive-consistency",
    name: "Same essentials at every size",
    category: "mobile",
    severity: "minor",
    standard: ["mobile-sm", "tablet-portrait", "desktop-md"],
    summary: "The main heading and the primary call to action shown at desktop width are present at every other size.",
    judgment:
      "Takes the visible h1 and the primary call to action at desktop-md as the page's primary content. Fails when, at another captured size, the h1 is not visible or the call to action is hidden.",
    references: [
      {
        title: "Google: mobile-first indexing best practices",
        url: "https://developers.google.com/search/docs/crawling-indexing/mobile/mobile-sites-mobile-first-indexing",
      },
    ],
  }),
  evaluate(artifacts) {
    const desktop = layoutAt(artifacts, "desktop-md");
    const cta = primaryCta(desktop);
    const findings = [];
    for (const [size, layout] of Object.entries(artifacts.layout ?? {}) as Array<[CaptureSize, typeof desktop]>) {
      if (size === "desktop-md") continue;
      if (desktop.visibleH1 && layout.visibleH1 === null)
        findings.push({
          message: `the h1 ${quote(desktop.visibleH1, 40)} is not visible`,
          viewport: size,
          selector: "h1",
        });
      if (cta && !layout.controls.find((c) => c.selector === cta.selector)?.shown)
        findings.push({
          message: `the call to action ${quote(cta.label, 40)} is hidden`,
          viewport: size,
          selector: cta.selector,
        });
    }
    const sizes = Object.keys(artifacts.layout ?? {}).join(", ");
    if (findings.length === 0)
      return pass(
        `Primary content (h1 ${desktop.visibleH1 ? quote(desktop.visibleH1, 40) : "none"}, call to action ${cta ? quote(cta.text, 30) : "none"}) is present at ${sizes}.`,
      );
    return {
      verdict: "fail",
      reason: `Keep the primary content at every size: at ${findings[0]!.viewport}, ${findings[0]!.message}`,
      reasoning: `Compared ${sizes} with desktop-md; ${findings.length} piece(s) of primary content missing.`,
      findings,
    };
  },
};
