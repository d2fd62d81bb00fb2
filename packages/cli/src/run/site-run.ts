import { setTimeout as sleep } from "node:timers/promises";
import type { RunRequestBody } from "../../../../src/contracts/run-request";
import type { RunViewBody } from "../../../../src/contracts/run-view";
import { ApiFailure, callApi } from "../client";

/**
 * The client's one seam with the runs API (POST /api/runs, GET /api/runs/{runId}, PATCH /api/projects/{project}):
 * a planned run request in, the finished run view (verbose: every page's job inline) out. A server without runs
 * answers ROUTE_NOT_FOUND, said as such.
 */

type Connection = { baseUrl: string; key: string };

/** A server that answers 404 ROUTE_NOT_FOUND for the runs routes predates them. */
function runsUnsupported(e: unknown, route: string): unknown {
  if (e instanceof ApiFailure && e.status === 404 && e.code === "ROUTE_NOT_FOUND")
    return new ApiFailure(
      404,
      "RUNS_NOT_SUPPORTED",
      `This server does not support runs yet (${route} answered 404 ROUTE_NOT_FOUND): upgrade it, or check pages one at a time with \`assay run\`.`,
      e.requestId,
    );
  return e;
}

/** A line of progress on a terminal (stderr), rewritten in place; nothing elsewhere. */
function progress(run: RunViewBody, started: number): void {
  if (!process.stderr.isTTY) return;
  const elapsed = ((Date.now() - started) / 1000).toFixed(0);
  process.stderr.write(`\r\x1b[2K${run.runId} ${run.totals.settled}/${run.totals.pages} pages settled ${elapsed}s`);
}

/**
 * Creates the run (its project's base branch set first when the config names one), then polls it until it is no
 * longer running or the time is up, and answers it verbose (as it stands, still running, if the wait ended first).
 * The client sends `wait: false` and polls, so no HTTP request is held open for a whole run (Node's fetch gives up
 * on an answer's headers after 300 s).
 */
export async function submitRun(
  conn: Connection,
  request: RunRequestBody,
  opts: { timeoutMs: number; baseBranch?: string; intervalMs?: number },
): Promise<RunViewBody> {
  const { key } = conn;
  if (opts.baseBranch) {
    const path = `/api/projects/${encodeURIComponent(request.project)}`;
    await callApi(conn.baseUrl, "PATCH", path, { key, body: { baseBranch: opts.baseBranch } }).catch((e) => {
      throw runsUnsupported(e, `PATCH ${path}`);
    });
  }
  const started = Date.now();
  let run = (
    await callApi<RunViewBody>(conn.baseUrl, "POST", "/api/runs", { key, body: request }).catch((e) => {
      throw runsUnsupported(e, "POST /api/runs");
    })
  ).body;
  const read = () =>
    callApi<RunViewBody>(conn.baseUrl, "GET", `/api/runs/${encodeURIComponent(run.runId)}?detail=verbose`, { key });
  try {
    while (run.status === "running" && Date.now() - started < opts.timeoutMs) {
      progress(run, started);
      await sleep(Math.min(opts.intervalMs ?? 1000, Math.max(0, opts.timeoutMs - (Date.now() - started))));
      run = (await read()).body;
    }
  } finally {
    if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");
  }
  return (await read()).body;
}
