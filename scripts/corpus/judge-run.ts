/**
 * `assay judge evaluate`: the labelled corpora's visual checks run through the configured vision model, as jobs of
 * the real app. The app is started here, in this process, on a data directory of its own (the operator's log and
 * ledger are left alone) with the operator's ASSAY_VISION_* and the model enabled for the checks under evaluation.
 * Each job asks for verbose detail, so every row carries its judge's provenance: the model's answer, the
 * inspector's verdict it was given, tokens and latency. Scored by JudgeEvaluation (src/judge/evaluation.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { loadConfig, type Config } from "../../src/config";
import { startAssay } from "../../src/runtime";
import { VISUAL_CHECKS } from "../../src/judge/enabled";
import { JudgeEvaluation, type Evaluation, type JudgedRow } from "../../src/judge/evaluation";
import { PROMPT_VERSION } from "../../src/judge/model";
import { validationModules } from "../../src/catalog/registry";
import { loadCases } from "./cases";
import { composeEmailCase } from "./compose-email";
import { serveFolder } from "./serve-folder";
import { SCORED, SYNTHETIC_CORPUS, syntheticExpectation, type SyntheticCase } from "./taxonomy";

export interface JudgeRunOptions {
  /** "real-world" (corpus/ in the repository) and/or "synthetic" (ASSAY_CORPUS_DIR or ../shared/corpus). */
  corpora: string[];
  /** The visual checks to evaluate; empty: every visual check that needs no parameters. */
  checks: string[];
  /** At most this many cases from each corpus and subject (web, email). */
  limit?: number;
}

/** One case to run: how to hand it to a job, and the label of each check under evaluation it carries. */
interface PlannedCase {
  id: string;
  labels: Record<string, "pass" | "fail">;
  run(app: App, checks: string[]): Promise<JudgedRow[]>;
}

/** The evaluation's own server: its API (with the evaluation's key) and its SMTP inbox. */
interface App {
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  smtp: Transporter;
}

const subjectOf = (id: string) =>
  validationModules.find((m) => m.meta.id === id)?.meta.subjectType === "email" ? "email" : "web";

/** The checks an evaluation may cover: visual, and runnable without parameters. */
export const EVALUABLE_CHECKS = VISUAL_CHECKS.filter(
  (id) => !validationModules.find((m) => m.meta.id === id)?.meta.requiresConfiguration,
);

export async function runJudgeEvaluation(
  operator: Config,
  options: JudgeRunOptions,
): Promise<{ evaluation: Evaluation; report: string; notRun: string[] }> {
  const vision = operator.vision!;
  const checks = options.checks.length ? options.checks : EVALUABLE_CHECKS;
  const cases = planCases(options, checks);
  const dataDir = mkdtempSync(join(tmpdir(), "assay-judge-evaluate-"));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    SMTP_PORT: "0",
    ASSAY_DATABASE_URL: "",
    ASSAY_SHARED_DIR: "",
    ASSAY_S3_BUCKET: "",
    // The built-in plans: the evaluation's organization runs every check whatever the operator's catalog offers.
    ASSAY_BILLING_PROVIDER: "local",
    ASSAY_PLANS_FILE: "",
    ASSAY_MAIL_RELAY_URL: "",
    // The corpora are served from loopback by this process.
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
    ASSAY_SIGNUP_CREDITS: "100000000",
    ASSAY_VISION_CHECKS: checks.join(","),
    ASSAY_VISION_MIN_AGREEMENT: "0",
  });
  // The evaluation server's own log is diagnostics: on stderr, so stdout carries the report (or its JSON) alone.
  const log = console.log;
  console.log = console.error;
  const running = await startAssay(config, { warmBrowsers: false }).catch((e) => {
    console.log = log;
    throw e;
  });
  const base = `http://127.0.0.1:${running.httpPort}`;
  let key = "";
  const api: App["api"] = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  const smtp = nodemailer.createTransport({
    host: "127.0.0.1",
    port: running.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  const evaluation = new JudgeEvaluation();
  const notRun: string[] = [];
  if (options.corpora.includes("synthetic") && !existsSync(join(SYNTHETIC_CORPUS, "index.json")))
    notRun.push(`the synthetic corpus: none at ${SYNTHETIC_CORPUS} (ASSAY_CORPUS_DIR)`);
  try {
    const signup = await api("POST", "/api/signup", { email: "judge-evaluation@example.com" });
    if (signup.status !== 201) throw new Error(`the evaluation's own server refused its signup: ${signup.status}`);
    key = signup.body.apiKey;
    // One case at a time, in order: the report (and a scripted test model) sees the cases in the corpus's order.
    for (const c of cases) {
      const wanted = checks.filter((id) => c.labels[id]);
      try {
        const rows = await c.run({ api, smtp }, wanted);
        for (const row of rows)
          if (c.labels[row.validationId]) evaluation.score(c.id, row.validationId, c.labels[row.validationId]!, row);
      } catch (e) {
        notRun.push(`${c.id}: ${(e as Error).message}`);
      }
    }
  } finally {
    smtp.close();
    await running.stop();
    console.log = log;
    rmSync(dataDir, { recursive: true, force: true });
  }
  const figures = evaluation.figures();
  return {
    evaluation: {
      model: vision.model,
      promptVersion: PROMPT_VERSION,
      evaluatedAt: new Date().toISOString(),
      corpora: options.corpora,
      checks: figures,
    },
    report: evaluation.report(vision.model),
    notRun,
  };
}

function planCases(options: JudgeRunOptions, checks: string[]): PlannedCase[] {
  const limit = (list: PlannedCase[]) =>
    list.filter((c) => Object.keys(c.labels).length).slice(0, options.limit ?? Infinity);
  const out: PlannedCase[] = [];
  for (const subject of ["web", "email"] as const) {
    const own = checks.filter((id) => subjectOf(id) === subject);
    if (!own.length) continue;
    if (options.corpora.includes("real-world")) {
      const cases = subject === "web" ? loadCases("web") : loadCases("email");
      out.push(
        ...limit(
          cases.map((c) => ({
            id: `real-world/${subject}/${c.id}`,
            labels: Object.fromEntries(
              own.flatMap((id) => {
                const expect = c.labels[id]?.expect;
                return expect === "pass" || expect === "fail" ? [[id, expect]] : [];
              }),
            ),
            run:
              subject === "web"
                ? (app, wanted) => {
                    const site = serveFolder(join(c.dir, "site"));
                    return webJob(
                      app,
                      `http://127.0.0.1:${site.port}/${(c as { entry: string }).entry}`,
                      wanted,
                    ).finally(() => site.stop(true));
                  }
                : async (app, wanted) => {
                    const { raw, envelopeFrom } = await composeEmailCase(c as Parameters<typeof composeEmailCase>[0]);
                    return emailJob(app, raw, envelopeFrom, wanted);
                  },
          })),
        ),
      );
    }
    if (options.corpora.includes("synthetic") && existsSync(join(SYNTHETIC_CORPUS, "index.json"))) {
      const index = JSON.parse(readFileSync(join(SYNTHETIC_CORPUS, "index.json"), "utf8")) as {
        cases: SyntheticCase[];
      };
      const scored = own.filter((id) => SCORED.has(id));
      out.push(
        ...limit(
          index.cases
            .filter((c) => c.subject === subject)
            .map((c) => ({
              id: `synthetic/${c.path}`,
              labels: Object.fromEntries(scored.map((id) => [id, syntheticExpectation(c, id)])),
              run:
                subject === "web"
                  ? (app, wanted) => {
                      const site = serveFolder(SYNTHETIC_CORPUS);
                      return webJob(app, `http://127.0.0.1:${site.port}/${c.path}/page.html`, wanted).finally(() =>
                        site.stop(true),
                      );
                    }
                  : (app, wanted) => {
                      const raw = readFileSync(join(SYNTHETIC_CORPUS, c.path, "message.eml"));
                      const from =
                        /^Return-Path:\s*<([^>]*)>/im.exec(raw.subarray(0, 8192).toString("latin1"))?.[1] ??
                        "sender@example.com";
                      return emailJob(app, raw, from, wanted);
                    },
            })),
        ),
      );
    }
  }
  return out;
}

async function webJob({ api }: App, url: string, validations: string[]): Promise<JudgedRow[]> {
  const res = await api("POST", "/api/jobs", { type: "url", url, validations, detail: "verbose" });
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${res.body?.code ?? ""}`);
  return res.body.results;
}

async function emailJob(
  { api, smtp }: App,
  raw: Buffer,
  envelopeFrom: string,
  validations: string[],
): Promise<JudgedRow[]> {
  const res = await api("POST", "/api/jobs", { type: "email", validations, detail: "verbose" });
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${res.body?.code ?? ""}`);
  await smtp.sendMail({ envelope: { from: envelopeFrom, to: [res.body.testEmail] }, raw });
  for (;;) {
    const job = (await api("GET", `/api/jobs?jobId=${res.body.jobId}&detail=verbose`)).body.jobs[0];
    if (job.status === "completed") return job.results;
    if (job.status !== "pending" && job.status !== "running") throw new Error(`the job is ${job.status}`);
    await Bun.sleep(50);
  }
}
