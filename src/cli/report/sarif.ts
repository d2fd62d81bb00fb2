import type { Result } from "sarif";
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import pkg from "../../../package.json" with { type: "json" };
import type { JobView } from "../run/verdict";

/** A row's severity as a SARIF level: required checks are errors, recommended ones warnings, optional ones notes. */
const LEVEL: Record<string, Result.level> = {
  critical: "error",
  major: "error",
  required: "error",
  prohibited: "error",
  minor: "warning",
  recommended: "warning",
  info: "note",
  optional: "note",
};

/**
 * SARIF 2.1.0 (node-sarif-builder): one rule per validation that did not pass, one result per finding located at
 * the page (or message) with the element's selector as a logical location; a failed row without findings is one
 * result carrying its reason. Only failures are results: a check that could not run (error) found nothing, and
 * the text and JUnit reports name it.
 */
export function sarifReport(job: JobView): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "assay", toolDriverVersion: pkg.version });
  const page =
    job.subject.url ?? job.subject.baseUrl ?? `mailto:${job.testEmail ?? job.subject.testEmail ?? job.jobId}`;
  for (const r of job.results) {
    if (r.verdict !== "fail") continue;
    const rule = new SarifRuleBuilder().initSimple({ ruleId: r.validationId, shortDescriptionText: r.name });
    run.addRule(rule);
    const findings = r.findings.length
      ? r.findings
      : [{ message: r.reason ?? r.name, selector: undefined, url: undefined }];
    for (const f of findings) {
      const result = new SarifResultBuilder({
        properties: { jobId: job.jobId, severity: r.severity, ...(r.reason ? { reason: r.reason } : {}) },
      }).initSimple({
        level: LEVEL[r.severity] ?? "error",
        messageText: f.message,
        ruleId: r.validationId,
        fileUri: f.url ?? page,
      });
      if (f.selector)
        result.result.locations![0]!.logicalLocations = [{ fullyQualifiedName: f.selector, kind: "element" }];
      run.addResult(result);
    }
  }
  const log = new SarifBuilder();
  log.addRun(run);
  return `${JSON.stringify(log.buildSarifOutput(), null, 2)}\n`;
}
