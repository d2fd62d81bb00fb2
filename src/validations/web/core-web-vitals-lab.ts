import { pass, type Finding, type WebValidation } from "../types";
import { domCheck } from "./_helpers";

/** Google's "good" thresholds for Core Web Vitals. */
const LCP_GOOD_MS = 2500;
const CLS_GOOD = 0.1;

export const coreWebVitalsLab: WebValidation = {
  meta: domCheck({
    id: "core-web-vitals-lab",
    name: "Core Web Vitals (lab)",
    category: "performance",
    severity: "minor",
    summary:
      "In the lab at desktop size, Largest Contentful Paint is at most 2.5 s and Cumulative Layout Shift at most 0.1.",
    judgment:
      "Measured once in Assay's browser at desktop-md (1280×800, no CPU or network throttling) from the page's own performance entries: Largest Contentful Paint (ms from navigation start) and Cumulative Layout Shift (largest session window of shifts without recent input). The values are read when they are final: after load, once the page has been quiet for 1 s (no request in flight, started or finished, and no new largest paint), so a hero image behind a slow request is counted when it paints. Measuring stops at the latest 15 s after load. Fails when LCP is above 2500 ms or CLS above 0.1, Google's \"good\" thresholds; exactly at the threshold passes. When the 15 s cap is reached before the page went quiet, the values so far are lower bounds: a value already above its threshold still fails, otherwise the result is an error saying the vitals were not measured (refunded), never a pass. A page with no contentful element has no LCP: that passes, with a note. Lab values are not field data (CrUX): real users on slower devices and networks see larger values.",
    needs: ["vitals"],
    references: [
      { title: "web.dev: Largest Contentful Paint", url: "https://web.dev/articles/lcp" },
      { title: "web.dev: Cumulative Layout Shift", url: "https://web.dev/articles/cls" },
    ],
  }),
  evaluate(artifacts) {
    const v = artifacts.vitals;
    if (!v) throw new Error("no lab vitals gathered");
    const lcp = v.lcpMs === null ? null : Math.round(v.lcpMs);
    const when = v.final
      ? `final ${v.waitedMs} ms after load`
      : `cut at the ${v.capMs / 1000} s cap: the page was still loading or painting, so these are lower bounds`;
    const measured = `At desktop-md (${when}): LCP ${lcp === null ? "none (no contentful element was painted)" : `${lcp} ms`} (good ≤ ${LCP_GOOD_MS} ms), CLS ${v.cls} (good ≤ ${CLS_GOOD})${v.fcpMs !== null ? `, FCP ${Math.round(v.fcpMs)} ms` : ""}${v.loadMs !== null ? `, load ${Math.round(v.loadMs)} ms` : ""}.`;
    const findings: Finding[] = [];
    if (lcp !== null && lcp > LCP_GOOD_MS) {
      findings.push({
        message: `Largest Contentful Paint ${lcp} ms > ${LCP_GOOD_MS} ms`,
        viewport: "desktop-md",
        measured: { lcpMs: lcp, thresholdMs: LCP_GOOD_MS },
      });
    }
    if (v.cls > CLS_GOOD) {
      findings.push({
        message: `Cumulative Layout Shift ${v.cls} > ${CLS_GOOD}`,
        viewport: "desktop-md",
        measured: { cls: v.cls, threshold: CLS_GOOD },
      });
    }
    if (findings.length === 0 && !v.final) {
      // Not a verdict: LCP and CLS only grow, and a measurement that did not finish cannot show they stay good.
      return {
        verdict: "error",
        reason: `The lab vitals were not measured: the page was still loading or painting ${v.capMs / 1000} s after load, so its final LCP and CLS are unknown`,
        reasoning: measured,
        findings: [],
      };
    }
    if (findings.length === 0)
      return pass(
        lcp === null
          ? `${measured} With no LCP there is nothing to hold against the threshold; CLS is within it.`
          : measured,
      );
    const fixes = [
      ...(lcp !== null && lcp > LCP_GOOD_MS
        ? [
            `bring LCP from ${lcp} ms to 2500 ms or less (serve the largest above-the-fold image or text sooner: smaller, preloaded, not render-blocked)`,
          ]
        : []),
      ...(v.cls > CLS_GOOD
        ? [
            `bring CLS from ${v.cls} to 0.1 or less (give images, embeds and late-inserted content reserved space: width/height or aspect-ratio)`,
          ]
        : []),
    ];
    return { verdict: "fail", reason: `At desktop-md, ${fixes.join("; and ")}`, reasoning: measured, findings };
  },
};
