import { setTimeout as sleep } from "node:timers/promises";
import { callApi } from "../client";
import type { JobView } from "./verdict";

/** How much a job's results say: brief, or verbose (references and a note on each result). */
export type Detail = "brief" | "verbose";

/** The job as it stands now (GET /api/jobs?jobId=…), at this detail (the server answers brief unless asked). */
export async function fetchJob(
  baseUrl: string,
  key: string,
  jobId: string,
  detail: Detail = "brief",
): Promise<JobView> {
  const page = await callApi<{ jobs: JobView[] }>(
    baseUrl,
    "GET",
    `/api/jobs?jobId=${encodeURIComponent(jobId)}&detail=${detail}`,
    { key },
  );
  const job = page.body.jobs[0];
  if (!job) throw new Error(`job ${jobId} was not found`);
  return job;
}

/** A line of progress while a job runs: on a terminal it rewrites itself in place (stderr), elsewhere nothing is printed. */
export class Progress {
  private readonly live = Boolean(process.stderr.isTTY);
  private readonly started = Date.now();
  private shown = false;

  update(job: JobView): void {
    if (!this.live) return;
    const elapsed = ((Date.now() - this.started) / 1000).toFixed(0);
    const address = job.testEmail ?? job.subject.testEmail;
    const mail =
      job.type === "email"
        ? ` · ${address ?? ""} · ${job.status === "pending" ? "waiting for mail" : "mail arrived"}`
        : "";
    process.stderr.write(`\r\x1b[2K${job.jobId} ${job.status} ${elapsed}s${mail}`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) process.stderr.write("\r\x1b[2K");
  }
}

/** Polls until the job is no longer pending or running, or the time is up (then answers it as it stands), at the detail given. */
export async function followJob(
  baseUrl: string,
  key: string,
  first: JobView,
  opts: { timeoutMs: number; intervalMs?: number; detail?: Detail },
): Promise<JobView> {
  const progress = new Progress();
  const deadline = Date.now() + opts.timeoutMs;
  let job = first;
  try {
    while ((job.status === "pending" || job.status === "running") && Date.now() < deadline) {
      progress.update(job);
      await sleep(Math.min(opts.intervalMs ?? 250, Math.max(0, deadline - Date.now())));
      job = await fetchJob(baseUrl, key, job.jobId, opts.detail);
    }
  } finally {
    progress.done();
  }
  return job;
}
