import { describe, expect, test } from "bun:test";
import {
  baselineOf,
  decide,
  decideProject,
  evolve,
  initialRunState,
  normalizedUrl,
  pageKeyOf,
  RunStateError,
  type PageToStart,
  type RunCommand,
  type RunEvent,
  type RunState,
} from "../../src/domain/runs";
import type { PlannedJob } from "../../src/domain/planned-job";
import type { PageResults } from "../../src/domain/run-comparison";
import { findValidation } from "../../src/catalog/registry";
import type { StreamWrite } from "../../src/store/event-log";
import { refusal } from "../support/refusal";

/** The run decider on its own: no store, no browser. State is always the fold of what decide returned. */

const customerId = "cus_a";
const runId = "run_1";

function planned(credits: number, type: PlannedJob["type"] = "static_html"): PlannedJob {
  const run = [
    { module: findValidation("page-title")!, severity: "major" as const, parameters: {}, credits, fromSet: false },
  ];
  return {
    type,
    ...(type === "email" ? { emailSubject: "Hello" } : { html: "<title>t</title>", baseUrl: "https://example.com/" }),
    run,
    skipped: [],
    detail: "brief",
    totalCredits: credits,
  };
}

const pages = (...credits: number[]): PageToStart[] =>
  credits.map((c, index) => ({ index, pageKey: `/p${index}`, jobId: `job_${index}`, job: planned(c) }));

const startCmd = (p: PageToStart[]): RunCommand => ({
  kind: "start",
  runId,
  customerId,
  project: "shop",
  branch: "main",
  failOn: "new",
  ignores: [],
  pages: p,
});

const runEvents = (writes: StreamWrite[]) =>
  writes.filter((w) => w.streamId === `run-${runId}`).flatMap((w) => w.events) as unknown as RunEvent[];
const fold = (state: RunState, writes: StreamWrite[]) => runEvents(writes).reduce(evolve, state);

const started = () =>
  fold(
    initialRunState,
    decide(startCmd(pages(2, 3)), { run: initialRunState, credits: { balance: 10, streamVersion: 4 } }),
  );

const settledPage = (pageKey: string, verdict: "pass" | "fail", status: PageResults["status"] = "completed") => ({
  pageKey,
  status,
  rows: [{ validationId: "page-title", severity: "major" as const, verdict, reason: "no title", findings: [] }],
});

describe("start", () => {
  test("RunStarted, then each page's JobAccepted and charge on the balance the pages before it left, in one group of writes", () => {
    const writes = decide(startCmd(pages(2, 3, 4)), {
      run: initialRunState,
      credits: { balance: 9, streamVersion: 4 },
    });
    expect(writes.map((w) => [w.streamId, w.expectedVersion, w.events.map((e) => e.type).join()])).toEqual([
      [`run-${runId}`, 0, "RunStarted"],
      ["job-job_0", 0, "JobAccepted"],
      [`credits-${customerId}`, 4, "CreditsCharged"],
      ["job-job_1", 0, "JobAccepted"],
      [`credits-${customerId}`, 5, "CreditsCharged"],
      ["job-job_2", 0, "JobAccepted"],
      [`credits-${customerId}`, 6, "CreditsCharged"],
    ]);
    expect(runEvents(writes)[0]!.data).toEqual({
      runId,
      customerId,
      project: "shop",
      branch: "main",
      failOn: "new",
      pages: [
        { index: 0, pageKey: "/p0", jobId: "job_0", type: "static_html" },
        { index: 1, pageKey: "/p1", jobId: "job_1", type: "static_html" },
        { index: 2, pageKey: "/p2", jobId: "job_2", type: "static_html" },
      ],
      totalCredits: 9,
      ignores: [],
    });
    const state = fold(initialRunState, writes);
    expect(state).toMatchObject({ version: 1, completed: null });
    expect(state.started?.totalCredits).toBe(9);
  });

  test("a balance below the whole run's price is INSUFFICIENT_CREDITS with the run's total; a run is started once", () => {
    const e = refusal(() =>
      decide(startCmd(pages(2, 3, 4)), { run: initialRunState, credits: { balance: 8, streamVersion: 4 } }),
    );
    expect([e.code, e.details]).toEqual(["INSUFFICIENT_CREDITS", { balance: 8, required: 9, shortfall: 1, pages: 3 }]);
    expect(() => decide(startCmd(pages(1)), { run: started(), credits: { balance: 100, streamVersion: 9 } })).toThrow(
      RunStateError,
    );
  });
});

describe("complete", () => {
  test("refused while a page is open, then RunCompleted with the judgement against the baseline, once", () => {
    const state = started();
    expect(() =>
      decide(
        { kind: "complete", pages: [settledPage("/p0", "pass"), null], baseBranch: "main", baseline: null },
        { run: state },
      ),
    ).toThrow(/1 page\(s\) not settled/);
    const writes = decide(
      {
        kind: "complete",
        pages: [settledPage("/p0", "pass"), settledPage("/p1", "fail")],
        baseBranch: "main",
        baseline: { runId: "run_0", pages: [settledPage("/p0", "fail"), settledPage("/p1", "fail")] },
      },
      { run: state },
    );
    expect(writes.map((w) => [w.streamId, w.expectedVersion])).toEqual([[`run-${runId}`, 1]]);
    const completed = runEvents(writes)[0]!;
    expect(completed.type).toBe("RunCompleted");
    expect(completed.data).toMatchObject({
      runId,
      customerId,
      project: "shop",
      status: "completed",
      decision: "pass",
      baseBranch: "main",
      comparedWith: "run_0",
      pages: [
        { index: 0, decision: "pass" },
        { index: 1, decision: "pass" },
      ],
      comparison: {
        newFailures: [],
        fixed: [{ pageKey: "/p0", validationId: "page-title", reason: "no title" }],
        stillFailing: [{ pageKey: "/p1", validationId: "page-title", reason: "no title" }],
      },
      ignored: [],
    });
    const done = fold(state, writes);
    expect(() =>
      decide(
        {
          kind: "complete",
          pages: [settledPage("/p0", "pass"), settledPage("/p1", "pass")],
          baseBranch: "main",
          baseline: null,
        },
        { run: done },
      ),
    ).toThrow(/already completed/);
  });

  test("a run one of whose pages was interrupted or expired completes interrupted; without a baseline it records no comparison", () => {
    const writes = decide(
      {
        kind: "complete",
        pages: [settledPage("/p0", "pass", "interrupted"), settledPage("/p1", "pass")],
        baseBranch: "main",
        baseline: null,
      },
      { run: started() },
    );
    const data = runEvents(writes)[0]!.data as Record<string, unknown>;
    expect(data).toMatchObject({ status: "interrupted", decision: "undecided" });
    expect("comparison" in data || "comparedWith" in data).toBe(false);
  });

  test("the visual diff's answers reach the judgement and are recorded: a change beyond the tolerance blocks under visual", () => {
    const diff = {
      index: 0,
      jobId: "job_0",
      size: "desktop-md",
      changedRatio: 0.3,
      changed: true,
      baselineKey: "job_b-desktop-md.jpg",
      currentKey: "job_0-desktop-md.jpg",
    };
    const state = fold(
      initialRunState,
      decide({ ...startCmd(pages(2)), failOn: "visual" } as RunCommand, {
        run: initialRunState,
        credits: { balance: 10, streamVersion: 0 },
      }),
    );
    const writes = decide(
      {
        kind: "complete",
        pages: [settledPage("/p0", "pass")],
        baseBranch: "main",
        baseline: { runId: "run_0", pages: [settledPage("/p0", "pass")] },
        visual: [diff],
      },
      { run: state },
    );
    expect(runEvents(writes)[0]!.data).toMatchObject({
      decision: "blocked",
      comparison: { visualChanges: [{ pageKey: "/p0", size: "desktop-md", changedRatio: 0.3 }] },
      counts: { visualChanges: 1 },
      visual: [diff],
    });
  });

  test("a run that does not exist cannot complete", () => {
    expect(() =>
      decide({ kind: "complete", pages: [], baseBranch: "main", baseline: null }, { run: initialRunState }),
    ).toThrow(RunStateError);
  });
});

describe("projects", () => {
  test("an explicit baseline is a finished run of this organization and project", () => {
    const running = started();
    const done = fold(
      running,
      decide(
        {
          kind: "complete",
          pages: [settledPage("/p0", "pass"), settledPage("/p1", "pass")],
          baseBranch: "main",
          baseline: null,
        },
        { run: running },
      ),
    );
    const cmd = { kind: "setBaseline", customerId, project: "shop", runId } as const;
    expect(decideProject({ ...cmd, run: done }, 3)).toEqual([
      {
        streamId: `project-${customerId}-shop`,
        expectedVersion: 3,
        events: [{ type: "BaselineSet", data: { customerId, project: "shop", runId, by: "explicit" } }],
      },
    ]);
    expect(refusal(() => decideProject({ ...cmd, run: running }, 0)).code).toBe("RUN_STILL_RUNNING");
    expect(refusal(() => decideProject({ ...cmd, project: "blog", run: done }, 0)).code).toBe("RUN_NOT_FOUND");
    expect(refusal(() => decideProject({ ...cmd, customerId: "cus_b", run: done }, 0)).code).toBe("RUN_NOT_FOUND");
    expect(refusal(() => decideProject({ ...cmd, run: initialRunState }, 0)).code).toBe("RUN_NOT_FOUND");
  });

  test("the base branch is configured on the project's stream", () => {
    expect(decideProject({ kind: "configure", customerId, project: "shop", baseBranch: "trunk" }, 0)).toEqual([
      {
        streamId: `project-${customerId}-shop`,
        expectedVersion: 0,
        events: [{ type: "ProjectConfigured", data: { customerId, project: "shop", baseBranch: "trunk" } }],
      },
    ]);
  });

  test("the baseline is the later of the explicit run and the latest completed run on the base branch", () => {
    expect(baselineOf(null, null)).toBeNull();
    expect(baselineOf({ runId: "a", position: 5 }, null)).toEqual({ runId: "a", position: 5, by: "explicit" });
    expect(baselineOf(null, { runId: "b", position: 3 })).toEqual({ runId: "b", position: 3, by: "latest" });
    expect(baselineOf({ runId: "a", position: 5 }, { runId: "b", position: 3 })?.runId).toBe("a");
    expect(baselineOf({ runId: "a", position: 5 }, { runId: "b", position: 9 })?.runId).toBe("b");
  });
});

describe("page identity", () => {
  test("a URL normalized: scheme and host lower case, default port and fragment dropped, query sorted, path as given", () => {
    expect(normalizedUrl("HTTPS://Shop.Example:443/Blog/?b=2&a=1#top")).toBe("https://shop.example/Blog/?a=1&b=2");
    expect(normalizedUrl("http://shop.example:80")).toBe("http://shop.example/");
    expect(normalizedUrl("http://shop.example:8080/a?")).toBe("http://shop.example:8080/a");
    expect(normalizedUrl("https://shop.example/a?x=2&x=1")).toBe("https://shop.example/a?x=2&x=1");
  });

  test("the name when given, else the url, the base URL or the subject (else the place in the run)", () => {
    expect(pageKeyOf({ name: "Home", type: "url", url: "https://a.example/" }, 0)).toBe("Home");
    expect(pageKeyOf({ type: "url", url: "https://A.example/#x" }, 0)).toBe("https://a.example/");
    expect(pageKeyOf({ type: "static_html", baseUrl: "https://a.example/docs/" }, 1)).toBe("https://a.example/docs/");
    expect(pageKeyOf({ type: "email", emailSubject: "Spring sale" }, 2)).toBe("Spring sale");
    expect(pageKeyOf({ type: "email" }, 3)).toBe("email-3");
  });
});
