import { expect, test } from "bun:test";
import { coreWebVitalsLab } from "../../../src/validations/web/core-web-vitals-lab";
import { artifacts, evaluate } from "../support/web-artifacts";

test("exactly at the thresholds passes (LCP rounded to the millisecond)", async () => {
  const out = await evaluate(coreWebVitalsLab, artifacts({ vitals: { lcpMs: 2500.4, cls: 0.1, fcpMs: 800, loadMs: 1200 } }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("LCP 2500 ms");
});

test("no LCP (nothing contentful painted) passes with a note", async () => {
  const out = await evaluate(coreWebVitalsLab, artifacts({ vitals: { lcpMs: null, cls: 0, fcpMs: null, loadMs: null } }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("With no LCP");
});

test("LCP over 2500 ms and CLS over 0.1 each fail as a finding", async () => {
  const out = await evaluate(coreWebVitalsLab, artifacts({ vitals: { lcpMs: 2501, cls: 0.25, fcpMs: 400, loadMs: 900 } }));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual(["Largest Contentful Paint 2501 ms > 2500 ms", "Cumulative Layout Shift 0.25 > 0.1"]);
});

test("a layout shift alone fails on CLS only", async () => {
  const out = await evaluate(coreWebVitalsLab, artifacts({ vitals: { lcpMs: 300, cls: 0.11, fcpMs: 300, loadMs: 500 } }));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.measured)).toEqual([{ cls: 0.11, threshold: 0.1 }]);
});
