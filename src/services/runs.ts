import { AppError } from "../errors/app-error";
import type { VisualDiffData } from "../../events/runs";
import { readInput } from "../contracts/read-input";
import { RunEnvelope } from "../contracts/run-request";
import { findValidation } from "../catalog/registry";
import { ASSAY_SEVERITIES, POLICY_SEVERITIES } from "../contracts/job-request";
import type { PlannedJob } from "../domain/planned-job";
import type { PageResults } from "../domain/run-comparison";
import { parseRunFailOn } from "../domain/run-policy";
import {
  decide as decideRun,
  decideProject,
  DEFAULT_BASE_BRANCH,
  pageKeyOf,
  runState,
  RunStateError,
  type PageToStart,
  type ProjectCommand,
  type RunEvent,
} from "../domain/runs";
import { streams } from "../domain/accounts";
import { creditState } from "../../projections/credits";
import { jobsByIds, resultsFor } from "../../projections/jobs";
import {
  findProject,
  findProjects,
  findRun,
  findRuns,
  latestCompletedRun,
  openPages,
  runOfJob,
  runPages,
  settledUnfinishedRuns,
  type RunRow,
} from "../../projections/runs";
import { crashPoint } from "../faults";
import { browserReady } from "./job-runner";
import type { JobQuotes } from "./job-quotes";
import type { JobService } from "./jobs";
import { appendDecided } from "./job-writes";
import { decodeCursor, encodeCursor } from "./job-views";
import { newJobId, newRunId } from "./ids";
import { briefOf, pageResults, projectBaseline, projectView, runBrief, runView, type RunMaterial } from "./run-views";
import { asksVisual, checkMasks, compareVisually, pagePairs, visualCapture } from "./run-visual";
import type { CaptureExtras } from "./job-runner";
import type { RequestMeta, ServiceContext } from "./context";

const SYSTEM: RequestMeta = { actor: { kind: "system" }, channel: "system" };

/** Pages planned at once while a run is admitted (each url page's host is resolved by the network guard). */
const PLAN_CONCURRENCY = 16;

export interface RunListQuery {
  project?: string;
  branch?: string;
  limit?: number;
  cursor?: string;
}

/**
 * Runs: a project's pages checked as one request. A run is planned whole (every page through the job planner and the
 * plan's gate; one refusal refuses the run, naming the page), then admitted whole: RunStarted and every page's
 * JobAccepted and charge in one append, decided on the organization's balance. Its webpage pages then execute as
 * ordinary jobs on this node (JobService.execute), at most as many at once as the browser pool has turns; its email
 * pages wait for their messages like any email job. When the last page's job closes, wherever it closes (here, the
 * inbox, the expiry sweep, a recovery), the run is completed (RunCompleted: its judgement against the project's
 * baseline, src/domain/run-comparison.ts). Projects keep their base branch and an explicit baseline.
 */
export class RunService {
  /** Runs this process is completing now: a second closer of the same run leaves it to the first. */
  private readonly completing = new Set<string>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly quotes: JobQuotes,
    private readonly jobs: JobService,
  ) {
    jobs.onJobClosed((jobId) => this.pageClosed(jobId));
  }

  /**
   * Plans, admits and starts a run; answers the run view at once (running), or, when the request asks to `wait` and
   * the surface `mayWait` (HTTP; not MCP, whose clients poll get_run), once every page has settled. Every refusal
   * comes before anything is charged or created.
   */
  async start(
    customerId: string,
    body: unknown,
    meta: RequestMeta,
    options: { mayWait?: boolean; signal?: AbortSignal } = {},
  ) {
    const request = readInput(RunEnvelope, body);
    const max = this.ctx.config.runMaxPages;
    if (request.pages.length > max) {
      throw new AppError(
        "RUN_TOO_MANY_PAGES",
        `A run takes at most ${max} pages; this one has ${request.pages.length}. Split it; nothing was charged.`,
        { pages: request.pages.length, maxPages: max },
      );
    }
    const failOn = request.failOn ?? "fail";
    checkFailOn(failOn);
    const ignores = request.ignores ?? [];
    ignores.forEach((ignore, i) => {
      if (!findValidation(ignore.check))
        throw new AppError("VALIDATION_NOT_RUNNABLE", `ignores[${i}].check names no check: ${ignore.check}.`, {
          field: `ignores[${i}].check`,
          validationId: ignore.check,
        });
    });
    checkMasks(request.visual);
    const planned = await this.plan(customerId, request.pages);
    await browserReady(this.ctx, {
      rendersNow: planned.some((p) => p.job.type !== "email"),
      run: planned.flatMap((p) => p.job.run),
    });

    const runId = newRunId();
    const web = planned.filter((p) => p.job.type !== "email");
    // Held before their acceptance is appended: no recovery or sweep closes them while they wait for their turn.
    this.jobs.hold(web.map((p) => p.jobId));
    try {
      await appendDecided(
        this.ctx.log,
        () =>
          decideRun(
            {
              kind: "start",
              runId,
              customerId,
              project: request.project,
              ...(request.branch !== undefined ? { branch: request.branch } : {}),
              ...(request.commit !== undefined ? { commit: request.commit } : {}),
              failOn,
              ignores,
              ...(request.visual ? { visual: request.visual } : {}),
              pages: planned,
            },
            { run: this.readRun(runId), credits: creditState(this.ctx.readModels, customerId) },
          ),
        meta,
      );
    } catch (e) {
      this.jobs.release(web.map((p) => p.jobId));
      throw e;
    }
    const visual = asksVisual({ visual: request.visual, failOn });
    const pages = web.map((p) => ({ ...p, extras: visual ? visualCapture(request.visual, p.pageKey) : {} }));
    void this.execute(customerId, pages, meta).catch((e: Error) => console.error(`run ${runId}:`, e.message));
    if (options.mayWait && request.wait) await this.settled(customerId, runId, options.signal);
    return this.get(customerId, runId);
  }

  /** One run of this organization; RUN_NOT_FOUND when it has none with this id. */
  get(customerId: string, runId: string, detail: "brief" | "verbose" = "brief") {
    return runView(this.material(this.row(customerId, runId)), detail, this.ctx.captures);
  }

  /** One run as its webhooks announce it: as a list shows it, with its new failures (the first 20); one view made. */
  announcement(customerId: string, runId: string) {
    const m = this.material(this.row(customerId, runId));
    const view = runView(m, "brief", this.ctx.captures);
    return { ...briefOf(m, view), newFailures: view.comparison?.newFailures.slice(0, 20) ?? [] };
  }

  private row(customerId: string, runId: string) {
    const run = findRun(this.ctx.readModels, customerId, runId);
    if (!run) throw new AppError("RUN_NOT_FOUND", `No run ${runId} in this organization.`, { runId });
    return run;
  }

  /** The organization's runs, newest first (of one project and branch when named), without their pages. */
  list(customerId: string, q: RunListQuery) {
    const limit = Math.min(Math.max(q.limit ?? 20, 1), 100);
    const rows = findRuns(this.ctx.readModels, {
      customerId,
      ...(q.project !== undefined ? { project: q.project } : {}),
      ...(q.branch !== undefined ? { branch: q.branch } : {}),
      ...(q.cursor ? { beforePosition: decodeCursor(q.cursor) } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      runs: page.map((run) => runBrief(this.material(run), this.ctx.captures)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.position) : null,
    };
  }

  /** The organization's projects, by name. */
  projects(customerId: string) {
    return {
      projects: findProjects(this.ctx.readModels, customerId).map((row) =>
        projectView(
          row,
          latestCompletedRun(this.ctx.readModels, customerId, row.project, row.baseBranch ?? DEFAULT_BASE_BRANCH),
        ),
      ),
    };
  }

  /** Names a finished run of the project its baseline (BaselineSet); answers the project. */
  async setBaseline(customerId: string, project: string, runId: string, meta: RequestMeta) {
    return this.changeProject({ kind: "setBaseline", customerId, project, runId, run: this.readRun(runId) }, meta);
  }

  /** Sets the project's base branch (ProjectConfigured; the project is created if it has no run yet); answers it. */
  async configureProject(customerId: string, project: string, baseBranch: string, meta: RequestMeta) {
    return this.changeProject({ kind: "configure", customerId, project, baseBranch }, meta);
  }

  /**
   * Completes the runs whose every page has settled but that have no RunCompleted (the process stopped between the
   * two): at start after the recovery of jobs, and in each sweep. Answers how many it completed.
   */
  async completeSettled(): Promise<number> {
    let completed = 0;
    for (const run of settledUnfinishedRuns(this.ctx.readModels)) if (await this.complete(run.runId)) completed++;
    return completed;
  }

  private async changeProject(cmd: ProjectCommand, meta: RequestMeta) {
    await appendDecided(
      this.ctx.log,
      () =>
        decideProject(
          // The run is read again at the log's head: its completion may have come meanwhile.
          cmd.kind === "setBaseline" ? { ...cmd, run: this.readRun(cmd.runId) } : cmd,
          this.ctx.log.streamVersion(streams.project(cmd.customerId, cmd.project)),
        ),
      meta,
    );
    const row = findProject(this.ctx.readModels, cmd.customerId, cmd.project)!;
    return projectView(
      row,
      latestCompletedRun(this.ctx.readModels, cmd.customerId, cmd.project, row.baseBranch ?? DEFAULT_BASE_BRANCH),
    );
  }

  /**
   * Every page planned, gated and priced as a lone job would be, in order: the first refusal (by page index) refuses
   * the run, with the page's index beside the planner's own details. Then each page's identity across runs, which
   * must be its own in the run.
   */
  private async plan(customerId: string, pages: readonly unknown[]): Promise<PageToStart[]> {
    const { plan } = await this.ctx.plans.entitle(customerId);
    const planned: PageToStart[] = [];
    for (let from = 0; from < pages.length; from += PLAN_CONCURRENCY) {
      const chunk = pages.slice(from, from + PLAN_CONCURRENCY);
      const outcomes = await Promise.allSettled(
        chunk.map(async (raw, i) => {
          const index = from + i;
          const { name, page } = pageOf(raw, index);
          const job = await this.quotes.planned(page, plan).catch((e) => {
            throw onPage(e, index);
          });
          return { index, name, job };
        }),
      );
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") throw outcome.reason;
        const { index, name, job } = outcome.value;
        planned.push({
          index,
          pageKey: pageKeyOf({ ...job, ...(name !== undefined ? { name } : {}) }, index),
          ...(name !== undefined ? { name } : {}),
          jobId: newJobId(),
          job,
          ...(job.type === "email" ? { inbox: this.jobs.newInbox() } : {}),
        });
      }
    }
    const first = new Map<string, number>();
    for (const page of planned) {
      const seen = first.get(page.pageKey);
      if (seen !== undefined) {
        throw new AppError(
          "RUN_DUPLICATE_PAGE",
          `Pages ${seen} and ${page.index} are the same page (${page.pageKey}); give one a distinct name. Nothing was charged.`,
          { pageIndex: page.index, firstIndex: seen, pageKey: page.pageKey },
        );
      }
      first.set(page.pageKey, page.index);
    }
    return planned;
  }

  /**
   * The run's webpage pages, each an ordinary job on this node, at most as many at once as the pool has turns (the
   * pool shares them fairly with other organizations' work). A page whose settlement could not be appended is left
   * to this node's sweep, which closes it refunded; the others go on.
   */
  private async execute(
    customerId: string,
    pages: ReadonlyArray<{ jobId: string; job: PlannedJob; extras: CaptureExtras }>,
    meta: RequestMeta,
  ): Promise<void> {
    const queue = [...pages];
    const feed = async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        await this.jobs
          .execute(page.jobId, customerId, page.job, meta, page.extras)
          .catch((e: Error) => console.error(`[${meta.requestId}] run page ${page.jobId}:`, e.message));
        crashPoint("run-page-settled");
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.ctx.pool.capacity, queue.length) }, feed));
  }

  /** Waits until the run is no longer running (or the caller has gone), reading the log as it is now each time. */
  private async settled(customerId: string, runId: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (findRun(this.ctx.readModels, customerId, runId)?.status !== "running" || signal?.aborted) return;
      await Bun.sleep(100);
      await this.ctx.log.catchUp();
    }
  }

  /**
   * A job closed: when it was a run's last open page, the run is complete. Counted first, so that the closes before
   * the last one cost a query each, not a judgement of the whole run.
   */
  private async pageClosed(jobId: string): Promise<void> {
    const run = runOfJob(this.ctx.readModels, jobId);
    if (run && openPages(this.ctx.readModels, run.runId) === 0) await this.complete(run.runId);
  }

  /**
   * RunCompleted, decided at the log's head on the run's stream: refused (false) while a page is open or once the run
   * is completed, so two closers racing complete it once. The baseline is chosen first, and, when the run asks for
   * it, the visual comparison with it made (the slow part, off the log's lock) before the decision records both.
   */
  private async complete(runId: string): Promise<boolean> {
    if (this.completing.has(runId)) return false;
    this.completing.add(runId);
    try {
      const state = this.readRun(runId);
      const started = state.started;
      if (!started || state.completed) return false;
      const run = findRun(this.ctx.readModels, started.customerId, runId)!;
      const baseBranch =
        findProject(this.ctx.readModels, started.customerId, started.project)?.baseBranch ?? DEFAULT_BASE_BRANCH;
      const baseline = this.baselineRun(started.customerId, started.project, baseBranch, runId);
      const visual =
        baseline && asksVisual(started)
          ? await compareVisually(
              this.ctx,
              run.customerId,
              run.visual,
              pagePairs(this.ctx.readModels, runId, baseline.runId),
            )
          : undefined;
      await appendDecided(this.ctx.log, () => this.decideCompletion(runId, baseBranch, baseline, visual), SYSTEM);
      return true;
    } catch (e) {
      if (e instanceof RunStateError) return false;
      throw e;
    } finally {
      this.completing.delete(runId);
    }
  }

  private decideCompletion(
    runId: string,
    baseBranch: string,
    baseline: RunRow | null,
    visual: VisualDiffData[] | undefined,
  ) {
    const state = this.readRun(runId);
    const started = state.started;
    if (!started) throw new RunStateError(`no run ${runId}`);
    const material = this.material(findRun(this.ctx.readModels, started.customerId, runId)!);
    return decideRun(
      {
        kind: "complete",
        pages: material.pages.map((p) =>
          pageResults(p, material.jobs.get(p.jobId), material.results.get(p.jobId) ?? []),
        ),
        baseBranch,
        baseline: baseline ? { runId: baseline.runId, pages: this.settledPages(baseline) } : null,
        ...(visual ? { visual } : {}),
      },
      { run: state },
    );
  }

  /** The project's baseline run now (never the run itself), or null. */
  private baselineRun(customerId: string, project: string, baseBranch: string, except: string): RunRow | null {
    const row = findProject(this.ctx.readModels, customerId, project);
    if (!row) return null;
    const chosen = projectBaseline(row, latestCompletedRun(this.ctx.readModels, customerId, project, baseBranch));
    if (!chosen || chosen.runId === except) return null;
    return findRun(this.ctx.readModels, customerId, chosen.runId);
  }

  /** A finished run's pages as the comparison reads them. */
  private settledPages(run: RunRow): PageResults[] {
    const m = this.material(run, { withBaseline: false });
    return m.pages.flatMap((p) => pageResults(p, m.jobs.get(p.jobId), m.results.get(p.jobId) ?? []) ?? []);
  }

  /** A run with its pages, their jobs and results, and, while it runs and blocks only on new failures, its baseline. */
  private material(run: RunRow, { withBaseline = true } = {}): RunMaterial {
    const pages = runPages(this.ctx.readModels, run.runId);
    const ids = pages.map((p) => p.jobId);
    const needsBaseline = withBaseline && run.status === "running" && parseRunFailOn(run.failOn).newOnly;
    const baseline = needsBaseline
      ? this.baselineRun(
          run.customerId,
          run.project,
          findProject(this.ctx.readModels, run.customerId, run.project)?.baseBranch ?? DEFAULT_BASE_BRANCH,
          run.runId,
        )
      : null;
    return {
      run,
      pages,
      jobs: jobsByIds(this.ctx.readModels, ids),
      results: resultsFor(this.ctx.readModels, ids),
      baseline: baseline ? this.settledPages(baseline) : null,
    };
  }

  private readRun(runId: string) {
    return runState(this.ctx.log.readStream(streams.run(runId)) as unknown as RunEvent[]);
  }
}

/** A run's page: its name taken out, the rest a job request for the planner; its organization is the run's. */
function pageOf(raw: unknown, index: number): { name?: string; page: unknown } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { page: raw };
  const { name, ...page } = raw as Record<string, unknown>;
  if ("customerId" in page) {
    throw new AppError(
      "UNKNOWN_FIELD",
      `Page ${index}: customerId is the run's, not a page's; send it once, at the top of the run.`,
      { unknownFields: ["customerId"], pageIndex: index },
    );
  }
  if (name === undefined) return { page };
  if (typeof name !== "string" || name.length < 1 || name.length > 500) {
    throw new AppError("INVALID_REQUEST_BODY", `Page ${index}: name must be a string of 1 to 500 characters.`, {
      problems: [{ path: `pages[${index}].name`, message: "Expected a string of 1 to 500 characters" }],
      pageIndex: index,
    });
  }
  return { name, page };
}

/** A page's refusal as the run's: the planner's code and details, with the page's index. */
function onPage(e: unknown, index: number): unknown {
  if (!(e instanceof AppError)) return e;
  return new AppError(
    e.code,
    `Page ${index}: ${e.message}`,
    { ...e.details, pageIndex: index },
    e.developerMessage,
    e.retryable,
  );
}

/** failOn as a run reads it (the pass policy's words, new and visual); INVALID_ENUM_VALUE names a word it does not know. */
function checkFailOn(failOn: string): void {
  try {
    parseRunFailOn(failOn);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new AppError("INVALID_ENUM_VALUE", `failOn: ${e.message.replace("The threshold", "failOn")}`, {
      field: "failOn",
      value: failOn,
      allowedValues: ["fail", "error", "new", "visual", ...POLICY_SEVERITIES, ...ASSAY_SEVERITIES],
    });
  }
}
