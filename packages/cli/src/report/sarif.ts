import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Result } from "sarif";
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import pkg from "../../package.json" with { type: "json" };
import type { JobView } from "../run/verdict";
import type { CheckRow, RunReport } from "./run-rows";
import { fileRegions, type SourceRegion } from "./source-regions";

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

type Row = Pick<CheckRow, "validationId" | "name" | "severity" | "reason" | "findings">;

/** Where a row's results point: a page's URL, or an HTML file with its elements' regions in the source. */
type Place =
  | { uri: string; file?: undefined }
  | { file: string; regionOf: (selector: string) => SourceRegion | undefined };

/**
 * An HTML file as results name it, with its regions: relative to the working directory with forward slashes (code
 * scanning reads it against the checkout), or a file: URI when it lies outside.
 */
export function htmlFile(file: string): Place {
  const fromHere = relative(process.cwd(), resolve(file));
  const uri =
    fromHere.startsWith("..") || isAbsolute(fromHere)
      ? pathToFileURL(resolve(file)).href
      : fromHere.split(sep).join("/");
  return { file: uri, regionOf: fileRegions(file) };
}

/**
 * One result per finding of a failed row (a row without findings: one result carrying its reason), with the
 * element's selector as a logical location; its rule registered once per run. At a page's URL, a finding that
 * names its own URL (a broken link's) is located there; in an HTML file, at the element's start tag when the
 * selector finds it in the source (the URL then goes in the result's properties), else at the file alone.
 */
function addResults(
  run: SarifRunBuilder,
  rules: Set<string>,
  r: Row,
  at: { place: Place; level: Result.level; properties: Record<string, unknown>; extra?: Partial<Result> },
): void {
  if (!rules.has(r.validationId)) {
    rules.add(r.validationId);
    run.addRule(new SarifRuleBuilder().initSimple({ ruleId: r.validationId, shortDescriptionText: r.name }));
  }
  const findings = r.findings.length
    ? r.findings
    : [{ message: r.reason ?? r.name, selector: undefined, url: undefined }];
  const { place } = at;
  for (const f of findings) {
    const inFile = place.file !== undefined;
    const result = new SarifResultBuilder({
      properties: {
        severity: r.severity,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(inFile && f.url ? { url: f.url } : {}),
        ...at.properties,
      },
    }).initSimple({
      level: at.level,
      messageText: f.message,
      ruleId: r.validationId,
      fileUri: inFile ? place.file : (f.url ?? place.uri),
    });
    const location = result.result.locations![0]!;
    if (f.selector) location.logicalLocations = [{ fullyQualifiedName: f.selector, kind: "element" }];
    const region = inFile && f.selector ? place.regionOf(f.selector) : undefined;
    if (region) location.physicalLocation!.region = region;
    Object.assign(result.result, at.extra);
    run.addResult(result);
  }
}

const sarifText = (run: SarifRunBuilder) => {
  const log = new SarifBuilder();
  log.addRun(run);
  return `${JSON.stringify(log.buildSarifOutput(), null, 2)}\n`;
};

/**
 * SARIF 2.1.0 (node-sarif-builder) for one job: a result per finding of each failed row, located at the page (or
 * message), or, for a page read from an HTML file (`assay run --html FILE`), at the file and the element's place in
 * it. Only failures are results: a check that could not run (error) found nothing, and the text and JUnit reports
 * name it.
 */
export function sarifReport(job: JobView, htmlPath?: string): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "assay", toolDriverVersion: pkg.version });
  const page =
    job.subject.url ?? job.subject.baseUrl ?? `mailto:${job.testEmail ?? job.subject.testEmail ?? job.jobId}`;
  const place = htmlPath ? htmlFile(htmlPath) : { uri: page };
  const rules = new Set<string>();
  for (const r of job.results)
    if (r.verdict === "fail")
      addResults(run, rules, r, {
        place,
        level: LEVEL[r.severity] ?? "error",
        properties: { jobId: job.jobId, ...(htmlPath ? { pageUrl: page } : {}) },
      });
  return sarifText(run);
}

/** A run's failed row as a SARIF level: error where it blocks, a warning where it does not, a note once accepted. */
const RUN_LEVEL: Partial<Record<CheckRow["effect"], Result.level>> = {
  blocks: "error",
  warns: "warning",
  known: "warning",
  accepted: "note",
};

/**
 * SARIF for a run: one SARIF run, the results of every page. A page read from an HTML file (a built folder's, or
 * the config's) is located at that file and its elements' places in it (the page's URL in the result's
 * properties); others at the page's URL.
 * baselineState says whether the baseline had the failure (`new` or `unchanged`) when there is a baseline, and an
 * accepted failure carries the ignore's reason as an external suppression, so code scanning shows it dismissed.
 */
export function runSarifReport(report: RunReport): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "assay", toolDriverVersion: pkg.version });
  const rules = new Set<string>();
  for (const p of report.pages) {
    const pageUrl = p.page.job?.subject.url ?? p.page.job?.subject.baseUrl ?? p.page.pageKey;
    const place = p.file ? htmlFile(p.file) : { uri: pageUrl };
    for (const r of p.rows) {
      if (r.verdict !== "fail") continue;
      addResults(run, rules, r, {
        place,
        level: RUN_LEVEL[r.effect] ?? "warning",
        properties: { runId: report.run.runId, jobId: p.page.jobId, pageKey: p.page.pageKey, pageUrl },
        extra: {
          ...(report.run.comparison ? { baselineState: r.isNew ? "new" : "unchanged" } : {}),
          ...(r.accepted ? { suppressions: [{ kind: "external", justification: r.accepted }] } : {}),
        },
      });
    }
  }
  return sarifText(run);
}
