import { expect, test } from "bun:test";
import { JobRunner } from "../../src/services/job-runner";
import { planJob } from "../../src/domain/job-request";
import { NetworkGuard } from "../../src/capture/network-guard";
import { InspectorJudge } from "../../src/judge/judge";
import type { CaptureOutcome } from "../../src/capture/web-capture";
import { withDom, heading } from "../checks/support/web-artifacts";

/** A captured page as the runner sees it, without a browser: what a gatherer could not read is in gatherFailures. */
function runnerOver(outcome: CaptureOutcome) {
  return new JobRunner({
    guard: new NetworkGuard(false),
    webCapture: { capture: async () => outcome } as never,
    engines: {} as never,
    emailCapture: {} as never,
    captures: {
      store: () => {
        throw new Error("no screenshots in this test");
      },
    } as never,
    judge: new InspectorJudge(),
  });
}

test("a gatherer that failed errors only the checks that read its artifact; the others get verdicts", async () => {
  const guard = new NetworkGuard(false);
  const job = await planJob(
    {
      type: "static_html",
      html: "<h1>x</h1>",
      baseUrl: "https://example.com/",
      validations: ["single-h1", "accessibility-wcag"],
    },
    guard,
  );
  const artifacts = withDom(
    { headings: [heading("h1", 1, "Release notes")] },
    { gatherFailures: { axe: "Error: No AMD modules allowed" } },
  );
  const execution = await runnerOver({ ok: true, artifacts }).runWeb("job_1", "org_1", job);
  const byId = Object.fromEntries(execution.rows.map((r) => [r.validationId, r.outcome]));
  expect(byId["single-h1"]!.verdict).toBe("pass");
  expect(byId["accessibility-wcag"]).toMatchObject({
    verdict: "error",
    reason:
      "The capture could not gather what this check reads (axe: Error: No AMD modules allowed), so it has no verdict; the other checks were not affected.",
  });
  expect(execution.interruption).toBeUndefined();
});
