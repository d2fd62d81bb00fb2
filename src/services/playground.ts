import type { Static } from "@sinclair/typebox";
import { AppError } from "../errors/app-error";
import { planJob } from "../domain/job-request";
import type { PlannedJob } from "../domain/planned-job";
import { findValidation } from "../catalog/registry";
import { findSet } from "../catalog/sets";
import { CAPTURE_SIZES, type CaptureSize } from "../capture/vocabulary";
import type { PlaygroundRunBody, PlaygroundRun } from "../contracts/playground";
import type { Config } from "../config";
import { JobRunner, browserReady, errorRows, type Execution } from "./job-runner";
import { storedFileOf, type CaptureFile } from "./captures";
import { addressGroup, WindowedLimit } from "./limits";
import { newPlaygroundRunId, newPlaygroundSessionId } from "./ids";
import type { ServiceContext } from "./context";

export type PlaygroundRunView = Static<typeof PlaygroundRun>;

/** A session's cookie lives this long (7 days), its run count with it (the in-memory limiter's timers stop at 24.8 days). */
export const PLAYGROUND_SESSION_SECONDS = 7 * 86_400;

/** Who starts a run: the anonymous session its cookie names (none yet on a first run) and the client's address. */
export interface PlaygroundVisitor {
  sessionId: string | null;
  clientAddress?: string;
}

interface KeptRun {
  view: PlaygroundRunView;
  screenshot: CaptureFile | null;
  expiresAt: number;
}

const SESSION_ID = /^[0-9A-Za-z]{32}$/;

/**
 * The anonymous playground: a visitor's URL or pasted HTML becomes a job request of the configured checks at the
 * one configured size, planned by the planner (the same refusals as a job) and run by the JobRunner, with no
 * organization, credits or events. Runs and their screenshots live in memory for a while, a bounded number of
 * them; a session (cookie) cap and a windowed per-address limit bound who may start one.
 */
export class PlaygroundService {
  /** The ids a run may check, from the configuration (one set id, or check ids). */
  readonly checks: string[];
  readonly viewport: CaptureSize;
  /** In creation order, which is also expiry order: the oldest are at the front. */
  private readonly runs = new Map<string, KeptRun>();
  private readonly perSession: WindowedLimit;
  private readonly perAddress: WindowedLimit;
  private readonly settings: Config["playground"];

  constructor(
    private readonly ctx: Pick<
      ServiceContext,
      "config" | "guard" | "pool" | "webCapture" | "engines" | "emailCapture" | "judge" | "sharedCounts"
    >,
    offer: PlaygroundOffer,
  ) {
    this.settings = ctx.config.playground;
    this.checks = offer.checks;
    this.viewport = offer.viewport;
    this.perSession = new WindowedLimit(this.settings.runsPerSession, PLAYGROUND_SESSION_SECONDS);
    this.perAddress = new WindowedLimit(this.settings.runsPerAddress, this.settings.windowSeconds, {
      name: "playground-runs-per-address",
      counter: ctx.sharedCounts,
    });
  }

  /**
   * Plans the body (the job request's refusals, then INVALID_ENUM_VALUE for a check the playground does not offer),
   * counts the run against the session and the address (a refused run counts against neither), runs it and keeps it.
   * Answers the run and the session it counted against (a new one when the visitor had none).
   */
  async run(
    body: Static<typeof PlaygroundRunBody>,
    visitor: PlaygroundVisitor,
  ): Promise<{ run: PlaygroundRunView; sessionId: string }> {
    const job = await planJob(this.jobRequest(body), this.ctx.guard);
    const notOffered = job.run.filter((v) => !this.checks.includes(v.module.meta.id)).map((v) => v.module.meta.id);
    if (notOffered.length) {
      throw new AppError(
        "INVALID_ENUM_VALUE",
        `The playground does not run ${notOffered.join(", ")}; sign up to run every check.`,
        {
          field: "validations",
          values: notOffered,
          allowedValues: this.checks,
        },
      );
    }
    await browserReady(this.ctx, { rendersNow: true });
    const sessionId =
      visitor.sessionId && SESSION_ID.test(visitor.sessionId) ? visitor.sessionId : newPlaygroundSessionId();
    await this.admit(sessionId, visitor.clientAddress);
    const runId = newPlaygroundRunId();
    const createdAt = Date.now();
    const shots = new Map<string, CaptureFile>();
    const runner = new JobRunner({
      ...this.ctx,
      captures: { store: async (_owner, _runId, key, file) => (shots.set(key, file), storedFileOf(key, file)) },
    });
    let execution: Execution;
    try {
      execution = await runner.runWeb(runId, "playground", job, { alsoNeeds: ["screenshot"] });
    } catch (e) {
      // Nothing was charged, so there is nothing to settle: the run is shown with every check errored.
      const cause = `The run could not complete: ${(e as Error).message.split("\n")[0]}`;
      execution = { rows: errorRows(job.run, cause), captures: [], interruption: cause };
    }
    const screenshot = shots.get(`${runId}-${this.viewport}.jpg`) ?? null;
    const expiresAt = Date.now() + this.settings.runTtlSeconds * 1000;
    const view = this.view(runId, job, execution, screenshot !== null, createdAt, expiresAt);
    this.keep(runId, { view, screenshot, expiresAt });
    return { run: view, sessionId };
  }

  /** A kept run; PLAYGROUND_RUN_NOT_FOUND when unknown or expired. */
  get(runId: string): PlaygroundRunView {
    return this.kept(runId).view;
  }

  /** A run's screenshot at its size; STORAGE_OBJECT_NOT_FOUND when the run has none at that size. */
  screenshot(runId: string, size: string): CaptureFile {
    const { screenshot } = this.kept(runId);
    if (!screenshot || size !== screenshot.viewport) {
      throw new AppError("STORAGE_OBJECT_NOT_FOUND", `Run ${runId} has no screenshot at ${size}.`, { runId, size });
    }
    return screenshot;
  }

  /** The body as a job request: the playground's checks (or the visitor's choice of them) at its one size. */
  private jobRequest(body: Static<typeof PlaygroundRunBody>): Record<string, unknown> {
    return {
      type: body.html !== undefined ? "static_html" : "url",
      ...body,
      validations: body.validations ?? this.checks,
      captureSizes: [this.viewport],
    };
  }

  /** Counts a run against the session, then the address; a refusal leaves both counts as they were. */
  private async admit(sessionId: string, clientAddress: string | undefined): Promise<void> {
    const { runsPerSession, runsPerAddress, windowSeconds } = this.settings;
    await this.perSession.spend(
      sessionId,
      () =>
        new AppError(
          "PLAYGROUND_LIMIT_REACHED",
          `This session used its ${runsPerSession} free playground runs; sign up to run the full catalog.`,
          {
            limit: runsPerSession,
            used: runsPerSession,
          },
        ),
    );
    if (!clientAddress) return;
    try {
      await this.perAddress.spend(
        addressGroup(clientAddress),
        (retryAfterSeconds) =>
          new AppError(
            "PLAYGROUND_RATE_LIMITED",
            `Too many playground runs from this address; try again in ${retryAfterSeconds} s.`,
            {
              retryAfterSeconds,
              limit: runsPerAddress,
              windowSeconds,
            },
          ),
      );
    } catch (e) {
      await this.perSession.giveBack(sessionId);
      throw e;
    }
  }

  private keep(runId: string, run: KeptRun): void {
    this.dropExpired(Date.now());
    this.runs.set(runId, run);
    for (const oldest of this.runs.keys()) {
      if (this.runs.size <= this.settings.maxRuns) break;
      this.runs.delete(oldest);
    }
  }

  private kept(runId: string): KeptRun {
    this.dropExpired(Date.now());
    const run = this.runs.get(runId);
    if (!run)
      throw new AppError(
        "PLAYGROUND_RUN_NOT_FOUND",
        `No playground run ${runId}: runs are kept for ${this.settings.runTtlSeconds} s.`,
        { runId },
      );
    return run;
  }

  private dropExpired(now: number): void {
    for (const [runId, run] of this.runs) {
      if (run.expiresAt > now) break;
      this.runs.delete(runId);
    }
  }

  private view(
    runId: string,
    job: PlannedJob,
    execution: Execution,
    hasScreenshot: boolean,
    createdAt: number,
    expiresAt: number,
  ): PlaygroundRunView {
    const results = execution.rows.map((r) => ({
      validationId: r.validationId,
      name: findValidation(r.validationId)?.meta.name ?? r.validationId,
      verdict: r.outcome.verdict,
      severity: r.severity,
      ...(r.outcome.reason && r.outcome.verdict !== "pass" ? { reason: r.outcome.reason } : {}),
      findings: r.outcome.findings,
    }));
    const count = (verdict: string) => results.filter((r) => r.verdict === verdict).length;
    return {
      runId,
      type: job.type === "url" ? "url" : "static_html",
      subject:
        job.type === "url" ? { url: job.url! } : { baseUrl: job.baseUrl!, htmlBytes: Buffer.byteLength(job.html!) },
      viewport: this.viewport,
      status: execution.interruption ? "interrupted" : "completed",
      ...(execution.interruption ? { interruption: execution.interruption } : {}),
      summary: { pass: count("pass"), fail: count("fail"), error: count("error") },
      results,
      screenshotUrl: hasScreenshot
        ? `${this.ctx.config.publicBaseUrl}/api/playground/runs/${runId}/screenshots/${this.viewport}`
        : null,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }
}

/** What the playground offers: its checks and its one capture size. */
export interface PlaygroundOffer {
  checks: string[];
  viewport: CaptureSize;
}

/**
 * The configured offer, checked before anything opens (a bad setting stops the start, naming it): one set id stands
 * for its checks; each must be a webpage check that needs no parameters; the viewport a capture size.
 */
export function playgroundOffer(settings: Pick<Config["playground"], "checks" | "viewport">): PlaygroundOffer {
  const set = settings.checks.length === 1 ? findSet(settings.checks[0]!) : undefined;
  if (set && set.subjectType !== "url")
    throw new Error(
      `ASSAY_PLAYGROUND_CHECKS: ${JSON.stringify(set.id)} is a set of email checks; the playground checks webpages.`,
    );
  const checks = set ? [...set.validationIds] : settings.checks;
  if (!checks.length) throw new Error("ASSAY_PLAYGROUND_CHECKS names no check.");
  for (const id of checks) {
    const module = findValidation(id);
    if (!module || module.meta.id !== id || module.meta.subjectType !== "url" || module.meta.requiresConfiguration) {
      throw new Error(
        `ASSAY_PLAYGROUND_CHECKS: ${JSON.stringify(id)} is not a validation set id or a webpage check id that runs without parameters.`,
      );
    }
  }
  if (!(CAPTURE_SIZES as readonly string[]).includes(settings.viewport)) {
    throw new Error(
      `ASSAY_PLAYGROUND_VIEWPORT must be one of ${CAPTURE_SIZES.join(", ")}; got ${JSON.stringify(settings.viewport)}.`,
    );
  }
  return { checks, viewport: settings.viewport as CaptureSize };
}
