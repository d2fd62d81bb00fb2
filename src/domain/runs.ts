import { AppError } from "../errors/app-error";
import type { StreamWrite } from "../store/event-log";
import type { RunCompletedData, RunStartedData, IgnoreData, VisualDiffData, runEvents } from "../../events/runs";
import type { EventUnion } from "../../events/shared";
import { streams } from "./accounts";
import type { CreditLedgerState } from "./credits";
import { decide as decideJob, initialJobState } from "./jobs";
import type { PlannedJob } from "./planned-job";
import { judgeRun, type PageResults } from "./run-comparison";

/**
 * The run as a decider over its own stream (`run-<runId>`): started whole (RunStarted with every page's JobAccepted
 * and charge, decided together on the organization's balance), completed once when every page's job has settled
 * (RunCompleted with the judgement of src/domain/run-comparison.ts). The project (`project-<customerId>-<project>`)
 * records its base branch and an explicit baseline. Page identity across runs is pageKeyOf.
 */

export type RunEvent = EventUnion<typeof runEvents>;

export interface RunState {
  /** Events on the run's stream so far: the version the next write expects. */
  version: number;
  started: RunStartedData | null;
  completed: RunCompletedData | null;
}

export const initialRunState: RunState = { version: 0, started: null, completed: null };

export function evolve(state: RunState, e: RunEvent): RunState {
  const next = { ...state, version: state.version + 1 };
  switch (e.type) {
    case "RunStarted":
      return { ...next, started: e.data };
    case "RunCompleted":
      return { ...next, completed: e.data };
    case "BaselineSet":
    case "ProjectConfigured":
      return next;
  }
}

/** The state of a run from its stream, oldest event first. */
export const runState = (events: readonly RunEvent[]): RunState => events.reduce(evolve, initialRunState);

/** A command refused because of where the run is in its life (completing a run twice, or one with pages unsettled). */
export class RunStateError extends Error {}

/** The branch whose latest completed run is a project's baseline when the project names none. */
export const DEFAULT_BASE_BRANCH = "main";

/** One page of a run to start: its place, its identity across runs, its job (planned, gated and priced). */
export interface PageToStart {
  index: number;
  pageKey: string;
  name?: string;
  jobId: string;
  job: PlannedJob;
  /** Email pages: the test address the message is sent to, and until when. */
  inbox?: { testEmail: string; expiresAt: string };
}

export type RunCommand =
  | {
      kind: "start";
      runId: string;
      customerId: string;
      project: string;
      branch?: string;
      commit?: string;
      failOn: string;
      ignores: IgnoreData[];
      visual?: RunStartedData["visual"];
      pages: PageToStart[];
    }
  | {
      kind: "complete";
      /** Each page's results by its index in RunStarted; null for a page whose job has not settled. */
      pages: Array<PageResults | null>;
      baseBranch: string;
      /** The project's baseline run and its pages, when it has one. */
      baseline: { runId: string; pages: PageResults[] } | null;
      /**
       * The visual comparison with the baseline (each page's screenshots at each size against its baseline page's),
       * when the run asked for one and has a baseline: recorded on RunCompleted, and judged under failOn `visual`.
       */
      visual?: VisualDiffData[];
    };

export interface RunDecisionState {
  run: RunState;
  /** The organization's ledger (start reads it: every page is charged in the same append). */
  credits?: CreditLedgerState & { streamVersion: number };
}

export function decide(cmd: RunCommand, state: RunDecisionState): StreamWrite[] {
  switch (cmd.kind) {
    case "start":
      if (state.run.started) throw new RunStateError(`run ${cmd.runId} was already started`);
      return start(cmd, state.credits!);
    case "complete": {
      const started = state.run.started;
      if (!started) throw new RunStateError("cannot complete: no such run");
      if (state.run.completed) throw new RunStateError(`run ${started.runId} is already ${state.run.completed.status}`);
      const unsettled = cmd.pages.filter((p) => p === null).length;
      if (unsettled) throw new RunStateError(`run ${started.runId} has ${unsettled} page(s) not settled`);
      return [
        {
          streamId: streams.run(started.runId),
          expectedVersion: state.run.version,
          events: [{ type: "RunCompleted", data: completion(started, cmd) }],
        },
      ];
    }
  }
}

/**
 * The run and every page's acceptance and charge, as one group of writes: the whole run's price checked against the
 * balance first (INSUFFICIENT_CREDITS names the run's total), then each page charged by the job decider on the balance
 * the pages before it left, each its own job with its own charge, as a lone job would be.
 */
function start(
  cmd: Extract<RunCommand, { kind: "start" }>,
  ledger: CreditLedgerState & { streamVersion: number },
): StreamWrite[] {
  const total = cmd.pages.reduce((n, p) => n + p.job.totalCredits, 0);
  if (total > ledger.balance) {
    throw new AppError(
      "INSUFFICIENT_CREDITS",
      `This run of ${cmd.pages.length} page(s) costs ${total} credits and the balance is ${ledger.balance}; nothing was charged.`,
      { balance: ledger.balance, required: total, shortfall: total - ledger.balance, pages: cmd.pages.length },
    );
  }
  const started: RunStartedData = {
    runId: cmd.runId,
    customerId: cmd.customerId,
    project: cmd.project,
    ...(cmd.branch !== undefined ? { branch: cmd.branch } : {}),
    ...(cmd.commit !== undefined ? { commit: cmd.commit } : {}),
    failOn: cmd.failOn,
    pages: cmd.pages.map((p) => ({
      index: p.index,
      pageKey: p.pageKey,
      ...(p.name !== undefined ? { name: p.name } : {}),
      jobId: p.jobId,
      type: p.job.type,
    })),
    totalCredits: total,
    ignores: cmd.ignores,
    ...(cmd.visual ? { visual: cmd.visual } : {}),
  };
  const writes: StreamWrite[] = [
    { streamId: streams.run(cmd.runId), expectedVersion: 0, events: [{ type: "RunStarted", data: started }] },
  ];
  let credits = { ...ledger, existingCharge: null };
  const creditStream = streams.credits(cmd.customerId);
  for (const page of cmd.pages) {
    const accepted = decideJob(
      { kind: "accept", jobId: page.jobId, customerId: cmd.customerId, job: page.job, inbox: page.inbox },
      { job: initialJobState, credits },
    );
    const charged = accepted.filter((w) => w.streamId === creditStream).reduce((n, w) => n + w.events.length, 0);
    credits = {
      ...credits,
      balance: credits.balance - page.job.totalCredits,
      streamVersion: credits.streamVersion + charged,
    };
    writes.push(...accepted);
  }
  return writes;
}

/** RunCompleted: the judgement of every page against the baseline, under the run's failOn and ignores. */
function completion(started: RunStartedData, cmd: Extract<RunCommand, { kind: "complete" }>): RunCompletedData {
  const pages = cmd.pages as PageResults[];
  const pageKeys = new Map(started.pages.map((p) => [p.index, p.pageKey]));
  const judged = judgeRun({
    current: pages,
    baseline: cmd.baseline?.pages ?? null,
    ignores: started.ignores,
    failOn: started.failOn,
    ...(cmd.visual
      ? {
          visualChanges: cmd.visual.map((d) => ({
            pageKey: pageKeys.get(d.index)!,
            size: d.size,
            changedRatio: d.changedRatio,
            changed: d.changed,
          })),
        }
      : {}),
  });
  return {
    runId: started.runId,
    customerId: started.customerId,
    project: started.project,
    status: pages.every((p) => p.status === "completed") ? "completed" : "interrupted",
    decision: judged.decision,
    baseBranch: cmd.baseBranch,
    ...(cmd.baseline ? { comparedWith: cmd.baseline.runId } : {}),
    counts: judged.counts,
    pages: judged.pages.map((p, i) => ({ index: started.pages[i]!.index, decision: p.decision })),
    ...(judged.comparison ? { comparison: judged.comparison } : {}),
    ignored: judged.ignored,
    ...(cmd.visual ? { visual: cmd.visual } : {}),
  };
}

export type ProjectCommand =
  | { kind: "setBaseline"; customerId: string; project: string; runId: string; run: RunState }
  | { kind: "configure"; customerId: string; project: string; baseBranch: string };

/**
 * The project's own decisions, on its stream: an explicit baseline (a run of this organization and project that has
 * finished: RUN_NOT_FOUND, RUN_STILL_RUNNING otherwise), and its base branch.
 */
export function decideProject(cmd: ProjectCommand, projectVersion: number): StreamWrite[] {
  const streamId = streams.project(cmd.customerId, cmd.project);
  switch (cmd.kind) {
    case "setBaseline": {
      const run = cmd.run.started;
      if (!run || run.customerId !== cmd.customerId || run.project !== cmd.project) {
        throw new AppError("RUN_NOT_FOUND", `No run ${cmd.runId} in project ${cmd.project} of this organization.`, {
          runId: cmd.runId,
          project: cmd.project,
        });
      }
      if (!cmd.run.completed) {
        throw new AppError(
          "RUN_STILL_RUNNING",
          `Run ${cmd.runId} has pages not settled yet; a baseline is a finished run. Set it once the run is completed.`,
          { runId: cmd.runId, status: "running" },
        );
      }
      return [
        {
          streamId,
          expectedVersion: projectVersion,
          events: [
            {
              type: "BaselineSet",
              data: { customerId: cmd.customerId, project: cmd.project, runId: cmd.runId, by: "explicit" },
            },
          ],
        },
      ];
    }
    case "configure":
      return [
        {
          streamId,
          expectedVersion: projectVersion,
          events: [
            {
              type: "ProjectConfigured",
              data: { customerId: cmd.customerId, project: cmd.project, baseBranch: cmd.baseBranch },
            },
          ],
        },
      ];
  }
}

/** A candidate baseline and where the log decided it (BaselineSet's position, or the run's RunCompleted's). */
export interface BaselineCandidate {
  runId: string;
  position: number;
}

/**
 * The project's baseline: the later of the run set explicitly and the latest completed run on its base branch, by
 * when each was decided. So an explicit baseline holds until a run on the base branch completes after it.
 */
export function baselineOf(
  explicit: BaselineCandidate | null,
  latestOnBase: BaselineCandidate | null,
): (BaselineCandidate & { by: "explicit" | "latest" }) | null {
  if (explicit && (!latestOnBase || explicit.position > latestOnBase.position)) return { ...explicit, by: "explicit" };
  return latestOnBase ? { ...latestOnBase, by: "latest" } : null;
}

/**
 * A URL as a page's identity: scheme and host lower case, the default port and the fragment dropped, the path as
 * given (a trailing slash kept), the query's parameters sorted by name (stable for the same name).
 */
export function normalizedUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = "";
  url.searchParams.sort();
  return url.href.replace(/\?$/, "");
}

/**
 * A page's identity across runs: its `name` when given; else a url page's normalized URL, a static_html page's
 * normalized baseUrl, an email page's expected subject (else its place in the run, `email-<index>`).
 */
export function pageKeyOf(
  page: { name?: string; type: PlannedJob["type"]; url?: string; baseUrl?: string; emailSubject?: string },
  index: number,
): string {
  if (page.name !== undefined) return page.name;
  if (page.type === "url") return normalizedUrl(page.url!);
  if (page.type === "static_html") return normalizedUrl(page.baseUrl!);
  return page.emailSubject ?? `email-${index}`;
}
