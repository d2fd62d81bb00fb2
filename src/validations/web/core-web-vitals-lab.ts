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
    summary: "In the lab at desktop size, Largest Contentful Paint is at most 2.5 s and Cumulative Layout Shift at most 0.1.",
    judgment:
      "Measured once in Assay's browser at desktop-md (1280×800, no CPU or network throttling) from the page's own performance entries after load and a settle period (until the network is quiet, capped): Largest Contentful Paint (ms from navigation start) and Cumulative Layout Shift (largest session window of shifts without recent input). Fails when LCP is above 2500 ms or CLS above 0.1, Google's \"good\" thresholds; exactly at the threshold passes. A page with no contentful element has no LCP: that passes, with a note. Lab values are not field data (CrUX): real users on slower devices and networks see larger values.",
    // "network" too, for its side effect: the engine then waits for the network to go quiet before reading
    // the timings, so an LCP candidate painted just after the load event (a late hero image) is counted.
    needs: ["vitals", "network"],
    references: [
      { title: "web.dev: Largest Contentful Paint", url: "https://web.dev/articles/lcp" },
      { title: "web.dev: Cumulative Layout Shift", url: "https://web.dev/articles/cls" },
    ],
  }),
  evaluate(artifacts) {
    const v = artifacts.vitals;
    if (!v) throw new Error("no lab vitals gathered");
    const lcp = v.lcpMs === null ? null : Math.round(v.lcpMs);
    const measured = `At desktop-md: LCP ${lcp === null ? "none (no contentful element was painted)" : `${lcp} ms`} (good ≤ ${LCP_GOOD_MS} ms), CLS ${v.cls} (good ≤ ${CLS_GOOD})${v.fcpMs !== null ? `, FCP ${Math.round(v.fcpMs)} ms` : ""}${v.loadMs !== null ? `, load ${Math.round(v.loadMs)} ms` : ""}.`;
    const findings: Finding[] = [];
    if (lcp !== null && lcp > LCP_GOOD_MS) {
      findings.push({ message: `Largest Contentful Paint ${lcp} ms > ${LCP_GOOD_MS} ms`, viewport: "desktop-md", measured: { lcpMs: lcp, thresholdMs: LCP_GOOD_MS } });
    }
    if (v.cls > CLS_GOOD) {
      findings.push({ message: `Cumulative Layout Shift ${v.cls} > ${CLS_GOOD}`, viewport: "desktop-md", measured: { cls: v.cls, threshold: CLS_GOOD } });
    }
    if (findings.length === 0) return pass(lcp === null ? `${measured} With no LCP there is nothing to hold against the threshold; CLS is within it.` : measured);
    const fixes = [
      ...(lcp !== null && lcp > LCP_GOOD_MS ? [`bring LCP from ${lcp} ms to 2500 ms or less (serve the largest above-the-fold image or text sooner: smaller, preloaded, not render-blocked)`] : []),
      ...(v.cls > CLS_GOOD ? [`bring CLS from ${v.cls} to 0.1 or less (give images, embeds and late-inserted content reserved space: width/height or aspect-ratio)`] : []),
    ];
    return { verdict: "fail", reason: `At desktop-md, ${fixes.join("; and ")}`, reasoning: measured, findings };
  },
};
