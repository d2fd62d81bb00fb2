import { appendFileSync, writeFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { parseThreshold, type Threshold } from "../../../../src/domain/pass-policy";
import { ApiFailure, baseUrlOf, callApi, requireKey } from "../client";
import { action, EXIT, UsageError } from "../../../../src/cli/program";
import { writeEvidence } from "../report/evidence";
import { BASE_URL_OPTION } from "./auth";
import { githubSummary, runOutputs, writeGithubOutputs } from "../report/github";
import { textReport } from "../report/text";
import { deliverMessage, smtpEndpoint } from "../run/deliver";
import { fetchJob, followJob, type Detail } from "../run/follow";
import { jobSource, type SourceOptions } from "../run/job-source";
import { exitOf, verdictOf, type JobView } from "../run/verdict";

const FORMATS = ["text", "json", "junit", "sarif"] as const;
type Format = (typeof FORMATS)[number];

interface ServerOptions {
  baseUrl?: string;
}
interface ReportOptions extends ServerOptions {
  failOn: string;
  format: Format;
  output?: string;
  evidenceDir?: string;
  timeout: string;
}
interface SmtpOptions {
  smtpHost?: string;
  smtpPort?: string;
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The server and its key; no key (or no server answering) is undecided (exit 2) before anything is sent. */
export async function connection(opts: ServerOptions): Promise<{ baseUrl: string; key: string }> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  return { baseUrl, key: (await requireKey(baseUrl)).apiKey };
}

function threshold(text: string): Threshold {
  try {
    return parseThreshold(text);
  } catch (e) {
    throw new UsageError(`--fail-on: ${(e as Error).message}`);
  }
}

export function timeoutMs(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new UsageError(`--timeout ${text}: give seconds, a number of 0 or more`);
  return seconds * 1000;
}

/** Runs a client command; a catalogued failure (refused, unreachable, no key) prints its line and is undecided. */
export async function undecidedOnFailure(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    console.error(`assay: ${e.describe()}`);
    if (process.env.GITHUB_OUTPUT)
      writeGithubOutputs(process.env.GITHUB_OUTPUT, { verdict: "undecided", error: e.code });
    return EXIT.undecided;
  }
}

/**
 * The report in the chosen format (text coloured only on a terminal); the JUnit and SARIF builders load only when
 * asked for. SARIF locates a page given by --html at the file.
 */
async function render(
  format: Format,
  job: JobView,
  threshold: Threshold,
  colour: boolean,
  htmlPath?: string,
): Promise<string> {
  const verdict = verdictOf(job, threshold);
  if (format === "json")
    return `${JSON.stringify({ verdict: verdict.outcome, why: verdict.why, policy: verdict.policy, job }, null, 2)}\n`;
  if (format === "junit") return (await import("../report/junit")).junitReport(job, verdict);
  if (format === "sarif") return (await import("../report/sarif")).sarifReport(job, htmlPath);
  return textReport(job, verdict, colour);
}

/** Decides a finished (or timed-out) job and reports it: the report, GitHub outputs and summary, evidence; the exit code. */
async function finish(
  job: JobView,
  conn: { baseUrl: string; key: string },
  opts: ReportOptions,
  htmlPath?: string,
): Promise<number> {
  const t = threshold(opts.failOn);
  const verdict = verdictOf(job, t);
  const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  if (opts.output) {
    writeFileSync(opts.output, await render(opts.format, job, t, false, htmlPath));
    process.stdout.write(textReport(job, verdict, colour));
  } else process.stdout.write(await render(opts.format, job, t, colour, htmlPath));
  if (opts.evidenceDir) {
    const files = await writeEvidence(opts.evidenceDir, conn.baseUrl, conn.key, job);
    console.error(`evidence: ${files.length} file(s) in ${opts.evidenceDir}`);
  }
  if (process.env.GITHUB_OUTPUT) writeGithubOutputs(process.env.GITHUB_OUTPUT, runOutputs(job, verdict));
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, githubSummary(job, verdict));
  return exitOf(verdict);
}

/** POST /api/jobs, and the detail the body asked for; an email job with a message file gets it delivered to its test address. */
async function createJob(
  requestFile: string | undefined,
  opts: SourceOptions & SmtpOptions & ServerOptions,
  conn: { baseUrl: string; key: string },
): Promise<{ job: JobView; detail: Detail }> {
  const source = jobSource(requestFile, opts);
  if (source.defaultSet)
    console.error(
      `No --validation or --set given: checking the ${source.defaultSet} set (${conn.baseUrl}/validation-sets/${source.defaultSet}).`,
    );
  const detail: Detail = source.body.detail === "verbose" ? "verbose" : "brief";
  const job = (await callApi<JobView>(conn.baseUrl, "POST", "/api/jobs", { key: conn.key, body: source.body })).body;
  const address = job.testEmail ?? job.subject.testEmail;
  if (source.emlPath && address) {
    const endpoint = smtpEndpoint(conn.baseUrl, opts);
    try {
      await deliverMessage(source.emlPath, address, endpoint);
    } catch (e) {
      throw new ApiFailure(
        0,
        "SMTP_DELIVERY_FAILED",
        `Could not deliver ${source.emlPath} to ${address} via ${endpoint.host}:${endpoint.port}: ${(e as Error).message}`,
        null,
      );
    }
  }
  return { job, detail };
}

function subjectOptions(command: Command): Command {
  return command
    .argument("[request]", "a JSON file holding a whole job body (POST /api/jobs), instead of --url/--html/--email")
    .option("--url <url>", "check the page at this address (a url job)")
    .option("--html <file>", "check this HTML file (a static_html job); needs --page-url")
    .option(
      "--page-url <url>",
      "with --html: the address the page stands for (the job's baseUrl; relative links resolve against it)",
    )
    .option("--subject <text>", "email jobs: the subject line the message should carry")
    .option(
      "--validation <id[:name=value]>",
      "a check to run, repeatable; ID:name=value sets a parameter (values parse as JSON when they can)",
      collect,
    )
    .option("--set <id>", "a validation set to run")
    .option(
      "--smtp-host <host>",
      "the server's SMTP inbox host (default: ASSAY_SMTP_HOST, else the server's host name)",
    )
    .option("--smtp-port <port>", "the server's SMTP inbox port (default: ASSAY_SMTP_PORT, else 2525)")
    .option(...BASE_URL_OPTION);
}

function reportOptions(command: Command, defaultTimeout: string): Command {
  return command
    .option(
      "--fail-on <threshold>",
      "what blocks: fail (required-severity failures), a severity name (that or graver), plus ,error to count errors",
      "fail",
    )
    .addOption(new Option("--format <format>", "the report's format").choices(FORMATS).default("text"))
    .option("--output <file>", "write the report to this file (a text summary still goes to stdout)")
    .option("--evidence-dir <dir>", "write the job JSON and every non-pass screenshot here")
    .option("--timeout <seconds>", "how long to wait for a pending job (then undecided, exit 2)", defaultTimeout);
}

const EXIT_HELP =
  "\nExit codes: 0 pass, 1 blocked (the --fail-on threshold was crossed), 2 undecided (refused, expired, interrupted, timed out, unreachable, no key, bad usage).";

/** `assay run`, `assay start` and `assay wait`: a job from the command line or CI, decided by the pass policy. */
export function registerRunCommands(program: Command): void {
  reportOptions(
    subjectOptions(
      program
        .command("run")
        .description(
          "run a job and wait for its verdict: a page (--url, --html), an email (--email FILE.eml is delivered to the job's address over SMTP) or a request file",
        )
        .option(
          "--email [file]",
          "an email job; with FILE.eml the message is delivered to the job's test address over SMTP, without it send one yourself",
        ),
    ),
    "600",
  )
    .addHelpText("after", EXIT_HELP)
    .action(
      action((requestFile: string | undefined, opts: SourceOptions & SmtpOptions & ReportOptions) =>
        undecidedOnFailure(async () => {
          const conn = await connection(opts);
          const limit = timeoutMs(opts.timeout);
          threshold(opts.failOn);
          const { job: created, detail } = await createJob(requestFile, opts, conn);
          const address = created.testEmail ?? created.subject.testEmail;
          if (address && !process.stderr.isTTY) console.error(`job ${created.jobId}: waiting for mail at ${address}`);
          // Polled at the detail the request asked for: the server answers brief unless asked.
          const job = await followJob(conn.baseUrl, conn.key, created, { timeoutMs: limit, detail });
          return finish(job, conn, opts, opts.html);
        }),
      ),
    );

  subjectOptions(
    program
      .command("start")
      .description(
        "create a job and print its id (and, for an email job, its test address on the next line); `assay wait` finishes it",
      )
      .option(
        "--email [file]",
        "an email job; with FILE.eml the message is delivered to the job's test address over SMTP",
      ),
  )
    .addHelpText(
      "after",
      "\nUnder GitHub Actions the id and address are also outputs (job-id, test-email).\nExit codes: 0 created, 2 undecided (refused, unreachable, no key, bad usage).",
    )
    .action(
      action((requestFile: string | undefined, opts: SourceOptions & SmtpOptions & ServerOptions) =>
        undecidedOnFailure(async () => {
          const conn = await connection(opts);
          const { job } = await createJob(requestFile, opts, conn);
          const address = job.testEmail ?? job.subject.testEmail;
          console.log(job.jobId);
          if (address) console.log(address);
          if (process.env.GITHUB_OUTPUT)
            writeGithubOutputs(process.env.GITHUB_OUTPUT, {
              "job-id": job.jobId,
              ...(address ? { "test-email": address } : {}),
            });
          return EXIT.pass;
        }),
      ),
    );

  reportOptions(
    program
      .command("wait")
      .description("wait for a job started with `assay start` (or any job id) and report its verdict as `run` does")
      .argument("<jobId>", "the job")
      .option(...BASE_URL_OPTION),
    "600",
  )
    .addHelpText("after", EXIT_HELP)
    .action(
      action((jobId: string, opts: ReportOptions) =>
        undecidedOnFailure(async () => {
          const conn = await connection(opts);
          const limit = timeoutMs(opts.timeout);
          threshold(opts.failOn);
          const job = await followJob(conn.baseUrl, conn.key, await fetchJob(conn.baseUrl, conn.key, jobId), {
            timeoutMs: limit,
          });
          return finish(job, conn, opts);
        }),
      ),
    );
}
