import { AppError } from "../errors/app-error";
import { planJob, type PlannedJob, type PlannedValidation } from "../domain/job-request";
import { decideAcceptance, decideSettlement, type RecordedResult } from "../domain/jobs";
import { streams } from "../domain/accounts";
import { ConcurrencyError } from "../store/event-store";
import { chargeForJob, creditState } from "../../projections/credits";
import { findJobs, resultsFor, type JobRow, type ResultRow } from "../../projections/jobs";
import { findValidation } from "../catalog/registry";
import type { CaptureSize, CheckServices, Outcome } from "../validations/types";
import { UrlProbe } from "../capture/url-probe";
import type { Screenshot, WebArtifacts } from "../capture/artifacts";
import type { NewEvent } from "../store/event-store";
import { newJobId } from "./ids";
import type { CaptureService } from "./captures";
import type { RequestMeta, ServiceContext } from "./context";

export interface JobListQuery {
  jobId?: string;
  status?: string;
  limit?: number;
  cursor?: string;
  detail?: "brief" | "verbose";
}

export class JobService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The price of a body, validated exactly as a run would be; nothing is charged or created. */
  async estimate(customerId: string, body: unknown) {
    const job = await planJob(body, this.ctx.guard);
    const { balance } = creditState(this.ctx.store.db, customerId);
    return {
      type: job.type,
      ...(job.validationSetId ? { validationSetId: job.validationSetId } : {}),
      lines: job.run.map((v) => ({ validationId: v.module.meta.id, credits: v.credits })),
      totalCredits: job.totalCredits,
      balance,
      sufficient: balance >= job.totalCredits,
      ...(balance < job.totalCredits ? { shortfall: job.totalCredits - balance } : {}),
      skipped_validations: job.skipped,
    };
  }

  async run(customerId: string, body: unknown, meta: RequestMeta) {
    const job = await planJob(body, this.ctx.guard);
    if (job.type === "email") {
      // Refused before charging: no email validation is registered yet, so planJob cannot select one.
      throw new AppError("SERVICE_UNAVAILABLE", "Email jobs are not available on this server yet.", { feature: "email" }, undefined, false);
    }
    const jobId = newJobId();
    this.charge(jobId, customerId, job, meta);
    let results: Execution;
    try {
      results = await this.execute(job, jobId, customerId);
    } catch (e) {
      // Charged but not delivered: settle with every row errored and refunded, then say so.
      console.error(`[${meta.requestId}] job ${jobId} failed after charge:`, e);
      const cause = `The job could not run: ${(e as Error).message.split("\n")[0]}`;
      const rows = job.run.map((v) => row(v, { verdict: "error", reason: cause, reasoning: cause, findings: [] }, 0));
      this.settle(jobId, customerId, job, { rows, captureEvents: [] }, meta, cause);
      throw new AppError("JOB_EXECUTION_FAILED", "The job failed after it was charged; every credit was refunded. Retry it.", {
        jobId,
        refunded: job.totalCredits,
      }, undefined, true);
    }
    this.settle(jobId, customerId, job, results, meta, results.interruption);
    return this.get(customerId, jobId, job.detail)!;
  }

  list(customerId: string, q: JobListQuery) {
    const limit = Math.min(Math.max(q.limit ?? 20, 1), 100);
    const beforePosition = q.cursor ? decodeCursor(q.cursor) : undefined;
    const rows = findJobs(this.ctx.store.db, { customerId, jobId: q.jobId, status: q.status, beforePosition, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const results = resultsFor(this.ctx.store.db, page.map((j) => j.jobId));
    return {
      jobs: page.map((j) => jobView(j, results.get(j.jobId)!, q.detail ?? j.detail, this.ctx.captures)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.position) : null,
    };
  }

  get(customerId: string, jobId: string, detail?: "brief" | "verbose") {
    const [row] = findJobs(this.ctx.store.db, { customerId, jobId, limit: 1 });
    if (!row) return null;
    const results = resultsFor(this.ctx.store.db, [jobId]).get(jobId)!;
    return jobView(row, results, detail ?? row.detail, this.ctx.captures);
  }

  /** Accept and charge in one transaction with the balance check; retried if another write moved the ledger first. */
  private charge(jobId: string, customerId: string, job: PlannedJob, meta: RequestMeta): void {
    for (let attempt = 0; ; attempt++) {
      const state = creditState(this.ctx.store.db, customerId);
      try {
        this.ctx.store.append(
          decideAcceptance(jobId, customerId, job, { ...state, existingCharge: chargeForJob(this.ctx.store.db, jobId) }),
          meta,
        );
        return;
      } catch (e) {
        if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
      }
    }
  }

  private async execute(job: PlannedJob, jobId: string, customerId: string): Promise<Execution> {
    if (job.run.length === 0) return { rows: [], captureEvents: [] };
    const viewports = captureViewports(job);
    const needs = new Set(job.run.flatMap((v) => v.module.meta.needs));
    const subject = job.type === "url" ? { type: "url" as const, url: job.url! } : { type: "static_html" as const, html: job.html!, baseUrl: job.baseUrl! };
    // Image URLs among the parameters (e.g. logo-usage's logoUrl): the capture loads and measures them as references.
    const referenceImages = job.run.flatMap((v) => v.module.meta.parameters.filter((p) => p.referenceImage).map((p) => v.parameters[p.name]));
    const capture = await this.ctx.webCapture.capture(subject, { viewports, needs, referenceImages: referenceImages.filter((u): u is string => typeof u === "string") });
    if (!capture.ok) {
      return {
        rows: job.run.map((v) => row(v, { verdict: "error", reason: capture.interruption, reasoning: capture.interruption, findings: [] }, 0)),
        captureEvents: [],
        interruption: capture.interruption,
      };
    }
    const shots = Object.values(capture.artifacts.screenshots ?? {}) as Screenshot[];
    const keyOf = (s: Screenshot) => `${jobId}-${s.viewport}.jpg`;
    const captureEvents = shots.map((s) => this.ctx.captures.store(customerId, jobId, keyOf(s), s));
    // One probe per job: a URL two checks ask about (or one check twice) is fetched once; closed with the job.
    const services: CheckServices = { probe: new UrlProbe(this.ctx.guard) };
    let rows: RecordedResult[];
    try {
      rows = await Promise.all(
        job.run.map(async (v) => {
          const result = await evaluate(v, capture.artifacts, services);
          if (v.module.meta.kind !== "visual") return result;
          const own = shots.filter((s) => v.module.meta.capture.standard.includes(s.viewport) || job.captureSizes?.includes(s.viewport));
          if (result.outcome.verdict !== "error") {
            const started = performance.now();
            result.outcome = await this.ctx.judge.judge({ meta: v.module.meta, inspection: result.outcome, screenshots: own });
            result.durationMs += performance.now() - started;
          }
          result.captureKeys = own.map(keyOf);
          return result;
        }),
      );
    } finally {
      services.probe.close();
    }
    return { rows, captureEvents };
  }

  private settle(jobId: string, customerId: string, job: PlannedJob, execution: Execution, meta: RequestMeta, interruption?: string) {
    for (let attempt = 0; ; attempt++) {
      const versions = {
        job: this.ctx.store.streamVersion(streams.job(jobId)),
        credits: creditState(this.ctx.store.db, customerId).streamVersion,
      };
      try {
        this.ctx.store.append(
          decideSettlement(jobId, customerId, execution.rows, execution.captureEvents, job.totalCredits, versions, interruption),
          meta,
        );
        return;
      } catch (e) {
        if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
      }
    }
  }
}

interface Execution {
  rows: RecordedResult[];
  /** CaptureStored events for the screenshots already written to disk. */
  captureEvents: NewEvent[];
  interruption?: string;
}

/** Every selected check's standard sizes, plus any the request adds with captureSizes. */
function captureViewports(job: PlannedJob): CaptureSize[] {
  const wanted = new Set<CaptureSize>([...(job.captureSizes ?? []), ...job.run.flatMap((v) => v.module.meta.capture.standard)]);
  // DOM checks read desktop-md; it is always gathered for them.
  if (job.run.some((v) => v.module.meta.needs.includes("dom"))) wanted.add("desktop-md");
  return [...wanted];
}

async function evaluate(v: PlannedValidation, artifacts: WebArtifacts, services: CheckServices): Promise<RecordedResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await v.module.evaluate(artifacts, v.parameters, services);
  } catch (e) {
    // A crash in one check is an error row for that check only, refunded at settlement.
    const message = `The check crashed: ${(e as Error).message}`;
    outcome = { verdict: "error", reason: message, reasoning: message, findings: [] };
  }
  return row(v, outcome, performance.now() - started);
}

function row(v: PlannedValidation, outcome: Outcome, durationMs: number): RecordedResult {
  return { validationId: v.module.meta.id, severity: v.severity, credits: v.credits, outcome, captureKeys: [], durationMs };
}

const NOTES = {
  pass: "Clean on this one. Nothing to fix.",
  fail: "Worth fixing before this ships: the reason says what and where.",
  error: "We could not run this check, so it is not a verdict on your work. It was refunded.",
};

function resultView(r: ResultRow, detail: "brief" | "verbose", captures: CaptureService) {
  const module = findValidation(r.validationId);
  return {
    validationId: r.validationId,
    name: module?.meta.name ?? r.validationId,
    verdict: r.verdict,
    severity: r.severity,
    ...(r.reason && r.verdict !== "pass" ? { reason: r.reason } : {}),
    reasoning: r.reasoning,
    findings: r.findings,
    ...(r.captureKeys.length
      ? {
          screenshotUrl: captures.url(r.captureKeys[0]!),
          screenshotShareUrl: captures.shareUrl(r.captureKeys[0]!),
          captures: r.captureKeys.map((key) => ({ viewport: key.replace(/^.*-([a-z]+-[a-z]+)\.jpg$/, "$1"), screenshotUrl: captures.url(key) })),
        }
      : {}),
    ...(detail === "verbose" ? { references: module?.meta.references ?? [], note: NOTES[r.verdict] } : {}),
  };
}

function jobView(j: JobRow, results: ResultRow[], detail: "brief" | "verbose", captures: CaptureService) {
  const counts = { pass: 0, fail: 0, error: 0 };
  for (const r of results) counts[r.verdict]++;
  return {
    jobId: j.jobId,
    type: j.type,
    status: j.status,
    subject: j.subject,
    ...(j.validationSetId ? { validationSets: [j.validationSetId] } : {}),
    overallPassPolicy: "every-result-pass",
    summary: { ...counts, passed: j.status === "completed" && counts.fail === 0 && counts.error === 0 },
    results: results.map((r) => resultView(r, detail, captures)),
    skipped_validations: j.skipped,
    credits: { charged: j.charged, refunded: j.refunded, net: j.charged - j.refunded },
    ...(j.interruption ? { interruption: j.interruption } : {}),
    createdAt: j.createdAt,
    completedAt: j.completedAt,
  };
}

const encodeCursor = (position: number) => Buffer.from(`p:${position}`).toString("base64url");
function decodeCursor(cursor: string): number {
  const m = /^p:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw new AppError("INVALID_REQUEST_BODY", "cursor is not a cursor this service issued.", { field: "cursor" });
  return Number(m[1]);
}
