import { AppError } from "../errors/app-error";
import { planJob, type PlannedJob, type PlannedValidation } from "../domain/job-request";
import { priceJob } from "../domain/pricing";
import { decideAcceptance, decideExpiry, decideSettlement, type RecordedResult } from "../domain/jobs";
import { streams } from "../domain/accounts";
import { ConcurrencyError, type NewEvent } from "../store/event-store";
import { chargeForJob, creditState } from "../../projections/credits";
import { findJobs, resultsFor, type JobRow, type ResultRow } from "../../projections/jobs";
import { findValidation } from "../catalog/registry";
import type { CheckServices, EmailValidation, Outcome, WebValidation } from "../validations/types";
import type { CaptureSize } from "../capture/vocabulary";
import { inboxAddressOfJob, overdueAddresses, receivedUnsettled } from "../../projections/inbox";
import { parseEmail, UnparseableMessage } from "../inbox/email-artifacts";
import { authenticateEmail, type AuthenticationInput } from "../inbox/authentication";
import { gatherEmailHtml } from "../inbox/email-html";
import { EmailRenderStage, needsRenders } from "./email-renders";
import { UrlProbe } from "../capture/url-probe";
import type { Screenshot, WebArtifacts } from "../capture/artifacts";
import { newJobId, newTestAddressToken } from "./ids";
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
      ...priceLines(job),
      balance,
      sufficient: balance >= job.totalCredits,
      ...(balance < job.totalCredits ? { shortfall: job.totalCredits - balance } : {}),
      skipped_validations: job.skipped,
    };
  }

  /** With an organization, its estimate; without one, the plan alone (lines and total, no balance). Nothing is charged or created. */
  async quote(body: unknown, customerId?: string) {
    if (customerId !== undefined) return { quote: await this.estimate(customerId, body) };
    const job = await planJob(body, this.ctx.guard);
    return { plan: { ...priceLines(job), skipped_validations: job.skipped } };
  }

  async run(customerId: string, body: unknown, meta: RequestMeta) {
    const job = await planJob(body, this.ctx.guard);
    const jobId = newJobId();
    if (job.type === "email") {
      const testEmail = `t-${newTestAddressToken()}@${this.ctx.config.inboxDomain}`;
      const expiresAt = new Date(Date.now() + this.ctx.config.emailWindowSeconds * 1000).toISOString();
      this.charge(jobId, customerId, job, meta, { testEmail, expiresAt });
      return this.get(customerId, jobId, job.detail);
    }
    this.charge(jobId, customerId, job, meta);
    let results: Execution;
    try {
      results = await this.execute(job, jobId, customerId);
    } catch (e) {
      // Charged but not delivered: settle with every row errored and refunded, then say so.
      console.error(`[${meta.requestId}] job ${jobId} failed after charge:`, e);
      const cause = `The job could not run: ${(e as Error).message.split("\n")[0]}`;
      this.settleOnce(jobId, customerId, job.totalCredits, { rows: errorRows(job.run, cause), captureEvents: [] }, meta, cause);
      throw new AppError("JOB_EXECUTION_FAILED", "The job failed after it was charged; every credit was refunded. Retry it.", {
        jobId,
        refunded: job.totalCredits,
      }, undefined, true);
    }
    this.settleOnce(jobId, customerId, job.totalCredits, results, meta, results.interruption);
    return this.get(customerId, jobId, job.detail);
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

  /** One job of this organization; an unknown id, or another organization's, is JOB_NOT_FOUND. */
  get(customerId: string, jobId: string, detail?: "brief" | "verbose") {
    const [row] = findJobs(this.ctx.store.db, { customerId, jobId, limit: 1 });
    if (!row) throw new AppError("JOB_NOT_FOUND", `No job ${jobId} in this organization.`, { jobId });
    const results = resultsFor(this.ctx.store.db, [jobId]).get(jobId)!;
    return jobView(row, results, detail ?? row.detail, this.ctx.captures);
  }

  /**
   * Checks the message an email job received and settles the job. Called by the inbox once the message is
   * stored, and at start-up for messages that arrived before a restart.
   */
  async processEmail(jobId: string): Promise<void> {
    const address = inboxAddressOfJob(this.ctx.store.db, jobId);
    const [job] = address ? findJobs(this.ctx.store.db, { customerId: address.customerId, jobId, limit: 1 }) : [];
    if (!address || !job || job.status !== "pending" || this.processing.has(jobId)) return;
    this.processing.add(jobId);
    const meta: RequestMeta = { actor: { kind: "system" }, channel: "smtp" };
    try {
      const arrival = this.ctx.store.readStream(streams.job(jobId)).find((e) => e.type === "EmailReceived");
      if (!arrival) return;
      const data = arrival.data as { storageKey: string; envelope: { mailFrom: string; rcptTo: string[] }; from: string; subject: string };
      const planned = job.validations.map((v) => ({ module: findValidation(v.id)!, severity: v.severity as PlannedValidation["severity"], parameters: v.parameters, credits: v.credits, fromSet: v.fromSet, ...(v.clients ? { clients: v.clients } : {}) }));
      const expectedSubject = job.subject.emailSubject as string | undefined;
      let rows: RecordedResult[];
      let renders: EmailRenderStage | undefined;
      let received = { from: data.from, subject: data.subject };
      try {
        const raw = this.ctx.mail.read(job.customerId, data.storageKey);
        const email = await parseEmail(raw, { mailFrom: data.envelope.mailFrom, rcptTo: data.envelope.rcptTo }, expectedSubject ?? null);
        const wants = (kind: string) => planned.some((v) => (v.module.meta.needs as string[]).includes(kind));
        // Three independent stages, each gathered once per job and only when a selected check reads it, side by side.
        const [authentication, htmlDom, renderStage] = await Promise.all([
          // SPF, DKIM and DMARC, with the SMTP client's IP, HELO and MAIL FROM as the inbox recorded them.
          wants("authentication") ? authenticateEmail(raw, data.envelope as AuthenticationInput, this.ctx.config) : undefined,
          // The HTML part's structure, parsed in Chromium (no script, no requests).
          wants("email-html") && email.html && email.bodyParts?.html !== false
            ? gatherEmailHtml(this.ctx.pool, email.html).catch((e) => ({ error: `The HTML part could not be read: ${(e as Error).message.split("\n")[0]}` }))
            : undefined,
          // The visual checks' mail-client renders, each (client, form factor) once; screenshots stored as captures.
          needsRenders(planned) ? EmailRenderStage.run(this.ctx, jobId, job.customerId, email, planned) : undefined,
        ]);
        if (authentication) email.authentication = authentication;
        if (htmlDom) email.htmlDom = htmlDom;
        renders = renderStage;
        received = { from: email.from ? `${email.from.name} <${email.from.address}>`.trim() : received.from, subject: email.subject ?? "" };
        rows = await Promise.all(planned.map((v) => runCheck(v, () => (v.module as EmailValidation).evaluate(email, v.parameters))));
        if (renders) rows = await renders.finish(rows, planned);
      } catch (e) {
        if (!(e instanceof UnparseableMessage)) throw e;
        rows = errorRows(planned, e.message);
      }
      const summary = {
        ...received,
        ...(expectedSubject !== undefined ? { expectedSubject, subjectMatches: normaliseSubject(received.subject) === normaliseSubject(expectedSubject) } : {}),
      };
      this.settleOnce(jobId, job.customerId, job.charged, { rows, captureEvents: renders?.captureEvents ?? [] }, meta, undefined, summary);
    } finally {
      this.processing.delete(jobId);
    }
  }

  /** Closes email jobs whose window passed without a message, refunding them in full. */
  expireOverdue(now = new Date()): number {
    let expired = 0;
    for (const address of overdueAddresses(this.ctx.store.db, now.toISOString())) {
      const [job] = findJobs(this.ctx.store.db, { customerId: address.customerId, jobId: address.jobId, limit: 1 });
      if (!job || job.status !== "pending") continue;
      const versions = { job: this.ctx.store.streamVersion(streams.job(job.jobId)), credits: creditState(this.ctx.store.db, job.customerId).streamVersion };
      const lines = job.validations.map((v) => ({ validationId: v.id, credits: v.credits }));
      this.ctx.store.append(decideExpiry(job.jobId, job.customerId, lines, job.charged, versions), { actor: { kind: "system" }, channel: "system" });
      expired++;
    }
    return expired;
  }

  /** After a restart: check messages that arrived but were not checked, and expire what ran out. */
  async recoverEmailJobs(): Promise<void> {
    for (const address of receivedUnsettled(this.ctx.store.db)) await this.processEmail(address.jobId);
    this.expireOverdue();
  }

  private readonly processing = new Set<string>();

  /** Accept and charge in one transaction with the balance check; retried if another write moved the ledger first. */
  private charge(jobId: string, customerId: string, job: PlannedJob, meta: RequestMeta, inbox?: { testEmail: string; expiresAt: string }): void {
    retryOnConflict(() => {
      const state = creditState(this.ctx.store.db, customerId);
      this.ctx.store.append(
        decideAcceptance(jobId, customerId, job, { ...state, existingCharge: chargeForJob(this.ctx.store.db, jobId) }, inbox),
        meta,
      );
    });
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
        rows: errorRows(job.run, capture.interruption),
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

  /** Settles a job at most once: a job already closed (completed, interrupted, expired) is left alone. */
  private settleOnce(
    jobId: string,
    customerId: string,
    charged: number,
    execution: Execution,
    meta: RequestMeta,
    interruption?: string,
    email?: Parameters<typeof decideSettlement>[7],
  ) {
    retryOnConflict(() => {
      const [current] = findJobs(this.ctx.store.db, { customerId, jobId, limit: 1 });
      if (!current || !["pending", "running"].includes(current.status)) return;
      const versions = {
        job: this.ctx.store.streamVersion(streams.job(jobId)),
        credits: creditState(this.ctx.store.db, customerId).streamVersion,
      };
      this.ctx.store.append(decideSettlement(jobId, customerId, execution.rows, execution.captureEvents, charged, versions, interruption, email), meta);
    });
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

function evaluate(v: PlannedValidation, artifacts: WebArtifacts, services: CheckServices): Promise<RecordedResult> {
  return runCheck(v, () => (v.module as WebValidation).evaluate(artifacts, v.parameters, services));
}

async function runCheck(v: PlannedValidation, check: () => Outcome | Promise<Outcome>): Promise<RecordedResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await check();
  } catch (e) {
    // A crash in one check is an error row for that check only, refunded at settlement.
    const message = `The check crashed: ${(e as Error).message}`;
    outcome = { verdict: "error", reason: message, reasoning: message, findings: [] };
  }
  return row(v, outcome, performance.now() - started);
}

/**
 * Runs a read-decide-append step again when another write moved one of its streams first (the decision is
 * remade on fresh state); a few attempts, then the conflict surfaces.
 */
function retryOnConflict(step: () => void): void {
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (e) {
      if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
    }
  }
}

/** A planned job's price: one line per check that runs, and the total. */
function priceLines(job: PlannedJob) {
  return {
    type: job.type,
    ...(job.validationSetId ? { validationSetId: job.validationSetId } : {}),
    ...priceJob(job.run),
  };
}

/** Every validation an error row with the same cause: the job could not run or read its subject at all. */
function errorRows(validations: PlannedValidation[], cause: string): RecordedResult[] {
  return validations.map((v) => row(v, { verdict: "error", reason: cause, reasoning: cause, findings: [] }, 0));
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
    ...(j.type === "email" ? { testEmail: j.subject.testEmail, expiresAt: j.subject.expiresAt } : {}),
    ...(j.email
      ? {
          email: j.email,
          ...(j.email.subjectMatches === false
            ? { warnings: [`The message's subject ${JSON.stringify(j.email.subject)} is not the expected ${JSON.stringify(j.email.expectedSubject)}: the checks ran on the message that arrived.`] }
            : {}),
        }
      : {}),
    ...(j.interruption ? { interruption: j.interruption } : {}),
    createdAt: j.createdAt,
    completedAt: j.completedAt,
  };
}

/** Subjects compare after Unicode normalisation, white-space folding and trimming; case matters. */
const normaliseSubject = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim();

const encodeCursor = (position: number) => Buffer.from(`p:${position}`).toString("base64url");
function decodeCursor(cursor: string): number {
  const m = /^p:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw new AppError("INVALID_REQUEST_BODY", "cursor is not a cursor this service issued.", { field: "cursor" });
  return Number(m[1]);
}
