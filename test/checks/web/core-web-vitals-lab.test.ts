import { expect, test } from "bun:test";
import { coreWebVitalsLab } from "../../../src/validations/web/core-web-vitals-lab";
import type { LabVitals } from "../../../src/capture/artifacts";
import { artifacts, evaluate } from "../support/web-artifacts";

/** Vitals that went final 1.2 s after load. */
const vitals = (
  v: Pick<LabVitals, "lcpMs" | "cls" | "fcpMs" | "loadMs">,
  over: Partial<LabVitals> = {},
): LabVitals => ({ ...v, final: true, waitedMs: 1200, capMs: 15_000, ...over });

test("exactly at the thresholds passes (LCP rounded to the millisecond)", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: 2500.4, cls: 0.1, fcpMs: 800, loadMs: 1200 }) }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("LCP 2500 ms");
});

test("no LCP (nothing contentful painted) passes with a note", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: null, cls: 0, fcpMs: null, loadMs: null }) }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("With no LCP");
});

test("LCP over 2500 ms and CLS over 0.1 each fail as a finding", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: 2501, cls: 0.25, fcpMs: 400, loadMs: 900 }) }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual([
    "Largest Contentful Paint 2501 ms > 2500 ms",
    "Cumulative Layout Shift 0.25 > 0.1",
  ]);
});

test("a layout shift alone fails on CLS only", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: 300, cls: 0.11, fcpMs: 300, loadMs: 500 }) }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.measured)).toEqual([{ cls: 0.11, threshold: 0.1 }]);
});

test("vitals cut at the cap are not a pass: an error saying they were not measured", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: 900, cls: 0, fcpMs: 300, loadMs: 400 }, { final: false, waitedMs: 15_000 }) }),
  );
  expect(out.verdict).toBe("error");
  expect(out.reason).toBe(
    "The lab vitals were not measured: the page was still loading or painting 15 s after load, so its final LCP and CLS are unknown",
  );
  expect(out.reasoning).toContain("cut at the 15 s cap");
});

test("vitals cut at the cap that already exceed a threshold fail: they only grow", async () => {
  const out = await evaluate(
    coreWebVitalsLab,
    artifacts({ vitals: vitals({ lcpMs: 4100, cls: 0, fcpMs: 300, loadMs: 400 }, { final: false, waitedMs: 15_000 }) }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual(["Largest Contentful Paint 4100 ms > 2500 ms"]);
  expect(out.reasoning).toContain("lower bounds");
});
