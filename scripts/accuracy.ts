/**
 * Verdict accuracy on two labelled corpora, reported apart:
 * - synthetic (../shared/corpus beside the repository, or ASSAY_CORPUS_DIR; written for this project): every web
 *   case served from loopback and run as a url job; every email case's message.eml delivered over SMTP as stored.
 *   Reported per defect type: which check caught it, the misses, every false fail on a clean case.
 * - real-world (corpus/ in the repository: public pages and emails nobody here wrote, labelled per check; see
 *   corpus/README.md): each page's site/ served from its own loopback root; each email built (MJML, Inky,
 *   Handlebars), composed with its delivery headers and sent over SMTP. Reported per check: agreement, false
 *   fails, misses, errors, every disagreement with the label's reason and Assay's.
 * Every job selects every check of its subject that needs no parameters (email authentication left out: the
 * messages arrive unsigned from loopback). Exit 0 whenever it could measure (it measures, it does not judge).
 *
 * ASSAY_ACCURACY_CORPORA=synthetic or real-world (default both; the synthetic one is skipped when absent),
 * ASSAY_ACCURACY_SUBJECTS=web or email (default both), ASSAY_ACCURACY_CASES=<id>,<id> (case ids or synthetic paths).
 * `--check ID` (repeatable) runs and scores only those checks (a subject none of them belongs to is skipped).
 *
 * Beside agreement, each corpus reports how many rows each method decided (dom, axe, pixels, ocr, model: the
 * findings' `method`, else the check's) and how many stayed "needs review" (scripts/corpus/methods.ts).
 *
 * With a vision model configured (ASSAY_VISION_BASE_URL, …), it judges every visual check here (the verdicts above
 * are then the model's), and the report ends with the model's figures as `assay judge evaluate` reports them: per
 * check, agreement with the labels and with the inspector, false fails, misses, needs review, p50 latency, tokens.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import nodemailer from "nodemailer";
import { startServer, tempDataDir } from "../test/support/harness";
import { validationModules } from "../src/catalog/registry";
import { Agreement } from "./corpus/agreement";
import { labelledChecks, loadCases } from "./corpus/cases";
import { composeEmailCase } from "./corpus/compose-email";
import { MethodTally } from "./corpus/methods";
import { serveFolder } from "./corpus/serve-folder";
import { JudgeEvaluation, type JudgedRow } from "../src/judge/evaluation";
import { VISUAL_CHECKS } from "../src/judge/enabled";
import { syntheticExpectation } from "./corpus/taxonomy";
import type { Finding } from "../src/validations/types";
import {
  ALSO_COVERS,
  DEFECT_OWNERS,
  SCORED,
  SYNTHETIC_CORPUS as CORPUS,
  type SyntheticCase as Case,
} from "./corpus/taxonomy";

interface ResultRow {
  validationId: string;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  reasoning: string;
  findings?: Finding[];
}

type Row = { path: string; check: string; reason: string; clean: boolean };

/** Scores one subject's cases against their labels and prints the report; web and email score alike. */
class Scorecard {
  readonly caught = new Map<string, number>();
  readonly missed: Array<{ defect: string; path: string; owner: string; why: string }> = [];
  readonly falseFails: Row[] = [];
  readonly unscored: Row[] = [];
  readonly errors: Row[] = [];

  constructor(readonly subject: "web" | "email") {}

  score(c: Case, results: ResultRow[]): void {
    const key = (d: string) => `${this.subject}/${d}`;
    const verdicts = new Map(results.map((r) => [r.validationId, r]));
    const expectedFail = new Set(c.defects.map((d) => DEFECT_OWNERS[key(d)]).filter(Boolean));
    for (const [check, covered] of Object.entries(ALSO_COVERS))
      if (c.defects.some((d) => covered.includes(key(d)))) expectedFail.add(check);
    for (const d of c.defects.filter((d) => chosen(DEFECT_OWNERS[key(d)] ?? ""))) {
      const owner = DEFECT_OWNERS[key(d)] ?? "(no owner)";
      const r = verdicts.get(owner);
      if (r?.verdict === "fail") this.caught.set(key(d), (this.caught.get(key(d)) ?? 0) + 1);
      else
        this.missed.push({
          defect: key(d),
          path: c.path,
          owner,
          why: r ? `${r.verdict}: ${r.reason ?? r.reasoning}` : "check not built yet",
        });
    }
    for (const [check, r] of verdicts) {
      const row = { path: c.path, check, reason: r.reason ?? "", clean: c.clean };
      if (r.verdict === "fail" && !expectedFail.has(check))
        (SCORED.has(check) ? this.falseFails : this.unscored).push(row);
      if (r.verdict === "error") this.errors.push(row);
    }
  }

  report(cases: Case[], header: string): void {
    const counts = new Map<string, number>();
    for (const c of cases)
      for (const d of c.defects.filter((d) => chosen(DEFECT_OWNERS[`${this.subject}/${d}`] ?? "")))
        counts.set(`${this.subject}/${d}`, (counts.get(`${this.subject}/${d}`) ?? 0) + 1);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    const clean = (rows: Row[]) => rows.filter((r) => r.clean).length;
    const list = (title: string, rows: Row[]) => {
      console.log(`\n${title}`);
      for (const r of rows.sort(byPath))
        console.log(`  ${r.clean ? "[clean] " : ""}${r.path}: ${r.check} → ${r.reason}`);
    };
    console.log(`\n${header}\n`);
    console.log("defect".padEnd(42), "owner".padEnd(34), "caught");
    for (const [defect, n] of [...counts].sort())
      console.log(defect.padEnd(42), (DEFECT_OWNERS[defect] ?? "-").padEnd(34), `${this.caught.get(defect) ?? 0}/${n}`);
    console.log(`\nMisses (${this.missed.length}):`);
    for (const m of this.missed.sort(byPath)) console.log(`  ${m.defect} in ${m.path}: ${m.owner} → ${m.why}`);
    list(`False fails (${this.falseFails.length}; on clean cases: ${clean(this.falseFails)}):`, this.falseFails);
    list(`Errors (${this.errors.length}):`, this.errors);
    if (this.unscored.length)
      list(
        `Fails outside the taxonomy (${this.unscored.length}, not scored; on clean cases: ${clean(this.unscored)}):`,
        this.unscored,
      );
    const totalDefects = [...counts.values()].reduce((a, b) => a + b, 0);
    const totalCaught = [...this.caught.values()].reduce((a, b) => a + b, 0);
    const label = this.subject === "web" ? "Summary" : "Email summary";
    console.log(
      `\n${label}: caught ${totalCaught}/${totalDefects} labelled defects; ${this.falseFails.length} false fail(s), ${clean(this.falseFails)} on clean cases; ${this.errors.length} error row(s).`,
    );
  }
}

const corpora = new Set((process.env.ASSAY_ACCURACY_CORPORA ?? "synthetic,real-world").split(",").map((x) => x.trim()));
const subjects = new Set((process.env.ASSAY_ACCURACY_SUBJECTS ?? "web,email").split(",").map((x) => x.trim()));
const { values: args } = parseArgs({ options: { check: { type: "string", multiple: true } } });
/** The checks run and scored: every labelled one, or those named by --check. */
const chosen = (check: string) => !args.check || args.check.includes(check);
const checksOf = (subject: "web" | "email") => labelledChecks(subject).filter(chosen);
for (const subject of ["web", "email"] as const) if (!checksOf(subject).length) subjects.delete(subject);
const only = process.env.ASSAY_ACCURACY_CASES
  ? new Set(process.env.ASSAY_ACCURACY_CASES.split(",").map((x) => x.trim()))
  : null;

const syntheticPresent = existsSync(join(CORPUS, "index.json"));
if (corpora.has("synthetic") && !syntheticPresent) {
  const missing =
    `accuracy: no synthetic corpus at ${CORPUS} (no index.json there). It is not part of this repository: ` +
    "put it at ../shared/corpus beside the repository, or set ASSAY_CORPUS_DIR to its directory.";
  if (!corpora.has("real-world")) {
    console.error(missing);
    process.exit(1);
  }
  console.error(`${missing} Scoring the real-world corpus only.`);
  corpora.delete("synthetic");
}
const index = corpora.has("synthetic")
  ? (JSON.parse(readFileSync(join(CORPUS, "index.json"), "utf8")) as { cases: Case[] })
  : { cases: [] };

const dataDir = tempDataDir();
/** The model's figures, when one is configured: it judges every visual check of every job. */
const judged = process.env.ASSAY_VISION_BASE_URL ? new JudgeEvaluation() : null;
const detail = judged ? "verbose" : "brief";
/** Scores a job's visual rows (carrying their judge's provenance) against the case's labels. */
function scoreJudge(caseId: string, labelOf: (check: string) => string | undefined, results: ResultRow[]) {
  for (const r of results as Array<ResultRow & JudgedRow>) {
    const label = labelOf(r.validationId);
    if (judged && VISUAL_CHECKS.includes(r.validationId) && (label === "pass" || label === "fail"))
      judged.score(caseId, r.validationId, label, r);
  }
}

const server = await startServer({
  ...(judged ? { ASSAY_VISION_CHECKS: "all", ASSAY_VISION_MIN_AGREEMENT: "0" } : {}),
  DATA_DIR: dataDir,
  ASSAY_ALLOW_PRIVATE_TARGETS: "1",
  ASSAY_SIGNUP_CREDITS: "10000000",
});
const { apiKey } = await server.signup("accuracy@example.com");
/** End of DATA to a completed job, per email case of the corpus being scored. */
const latencies: number[] = [];
const transport = nodemailer.createTransport({
  host: "127.0.0.1",
  port: server.smtpPort,
  secure: false,
  ignoreTLS: true,
});

if (corpora.has("synthetic") && subjects.has("web")) await syntheticWebAccuracy();
if (corpora.has("synthetic") && subjects.has("email")) await syntheticEmailAccuracy();
if (corpora.has("real-world") && subjects.has("web")) await realWorldWebAccuracy();
if (corpora.has("real-world") && subjects.has("email")) await realWorldEmailAccuracy();

transport.close();
if (judged) console.log(`\n${judged.report(server.assay.config.vision!.model)}`);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

/** Runs a url job with every web check that needs no parameters; null (and a line on stderr) when refused. */
async function runWebJob(label: string, url: string, validations: string[]): Promise<ResultRow[] | null> {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "url", url, validations, detail } });
  if (res.status !== 200) {
    console.error(`${label}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return null;
  }
  return res.body.results;
}

/**
 * Delivers one raw message over SMTP to a fresh email job and waits for its verdicts; the job, or a sentence
 * saying why there are no verdicts.
 */
async function runEmailJob(
  raw: Buffer,
  envelopeFrom: string,
  validations: string[],
): Promise<{ results: ResultRow[] } | { why: string }> {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations, detail } });
  if (res.status !== 200) return { why: `HTTP ${res.status} ${JSON.stringify(res.body)}` };
  await transport.sendMail({ envelope: { from: envelopeFrom, to: [res.body.testEmail] }, raw });
  // sendMail resolves on the reply to the end of DATA: from here to a completed job is the inbox's latency.
  const sent = performance.now();
  let job: any;
  for (let i = 0; i < 2400; i++) {
    job = (await server.api("GET", `/api/jobs?jobId=${res.body.jobId}&detail=${detail}`, { key: apiKey })).body.jobs[0];
    if (job.status !== "pending") break;
    await Bun.sleep(25);
  }
  latencies.push(performance.now() - sent);
  if (job.status !== "completed")
    return { why: `job ${job.jobId} is ${job.status}${job.interruption ? `: ${job.interruption}` : ""}` };
  return { results: job.results };
}

/** Runs items a few at a time (email renders are the slow part), keeping the order of the report. */
async function fewAtATime<T>(items: T[], run: (item: T) => Promise<void>, width = 4): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) await run(item);
    }),
  );
}

function printLatencies(what: string) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!) : 0;
  console.log(`End of DATA to completed job, ${what}, 4 cases at a time: p50 ${pct(50)} ms, p95 ${pct(95)} ms.`);
  latencies.length = 0;
}

async function syntheticWebAccuracy() {
  const webCases = index.cases.filter((c) => c.subject === "web" && (!only || only.has(c.path)));
  const webChecks = checksOf("web");
  const methods = new MethodTally();
  const card = new Scorecard("web");
  const corpusServer = serveFolder(CORPUS);
  for (const c of webCases) {
    const results = await runWebJob(c.path, `http://127.0.0.1:${corpusServer.port}/${c.path}/page.html`, webChecks);
    if (results) card.score(c, results);
    if (results) methods.add(c.path, results);
    if (results)
      scoreJudge(
        `synthetic/${c.path}`,
        (check) => (SCORED.has(check) ? syntheticExpectation(c, check) : undefined),
        results,
      );
  }
  corpusServer.stop(true);
  card.report(webCases, `Synthetic web corpus: ${webCases.length} cases, checks run: ${webChecks.length}`);
  methods.report("Synthetic web corpus, rows by deciding method");
}

/**
 * The email corpus: each message.eml goes over SMTP exactly as stored (nodemailer's envelope + raw) to a fresh
 * email job selecting every email check that needs no parameters, a few cases at a time.
 *
 * Left out: checks that read SPF/DKIM/DMARC ("authentication"). The corpus messages are replayed from loopback,
 * unsigned, by a client that is not their sender, so those verdicts measure the replay, not the message (the
 * taxonomy has no authentication defect either); test/checks/email-authentication.test.ts covers them.
 */
async function syntheticEmailAccuracy() {
  const emailCases = index.cases.filter((c) => c.subject === "email" && (!only || only.has(c.path)));
  const emailChecks = checksOf("email");
  const methods = new MethodTally();
  const card = new Scorecard("email");
  let done = 0;
  await fewAtATime(emailCases, async (c) => {
    const raw = readFileSync(join(CORPUS, c.path, "message.eml"));
    const returnPath =
      /^Return-Path:\s*<([^>]*)>/im.exec(raw.subarray(0, 8192).toString("latin1"))?.[1] ?? "sender@example.com";
    const run = await runEmailJob(raw, returnPath, emailChecks);
    if ("why" in run) return console.error(`${c.path}: ${run.why}`);
    done++;
    card.score(c, run.results);
    methods.add(c.path, run.results);
    scoreJudge(
      `synthetic/${c.path}`,
      (check) => (SCORED.has(check) ? syntheticExpectation(c, check) : undefined),
      run.results,
    );
  });
  card.report(
    emailCases,
    `Synthetic email corpus: ${emailCases.length} cases (${done} completed), checks run: ${emailChecks.length}; not run (replayed unsigned from loopback): email-authentication`,
  );
  methods.report("Synthetic email corpus, rows by deciding method");
  printLatencies(`all ${emailChecks.length} checks`);
  const kindOf = (id: string) => validationModules.find((m) => m.meta.id === id)?.meta.kind ?? "functional";
  for (const kind of ["functional", "visual"] as const) {
    const ff = card.falseFails.filter((f) => kindOf(f.check) === kind);
    const er = card.errors.filter((e) => kindOf(e.check) === kind);
    const run = emailChecks.filter((id) => kindOf(id) === kind).length;
    console.log(
      `${kind} checks (${run}): ${ff.length} false fail(s), ${ff.filter((f) => f.clean).length} on clean cases; ${er.length} error row(s).`,
    );
  }
}

/** The real-world webpages (corpus/web): each case's site/ served from its own loopback root. */
async function realWorldWebAccuracy() {
  const cases = loadCases("web").filter((c) => !only || only.has(c.id));
  const checks = checksOf("web");
  const agreement = new Agreement("web", checks);
  const methods = new MethodTally();
  for (const c of cases) {
    const site = serveFolder(join(c.dir, "site"));
    const results = await runWebJob(c.id, `http://127.0.0.1:${site.port}/${c.entry}`, checks);
    site.stop(true);
    if (results) agreement.score(c.id, c.labels, results);
    if (results) methods.add(c.id, results);
    if (results) scoreJudge(`real-world/web/${c.id}`, (check) => c.labels[check]?.expect, results);
    else agreement.failedToRun(c.id, "the job was refused (see above)");
  }
  agreement.report(`Real-world web corpus (corpus/web): ${cases.length} cases, ${checks.length} checks each`);
  methods.report("Real-world web corpus, rows by deciding method");
}

/** The real-world emails (corpus/email): built, composed with their delivery headers, sent over SMTP. */
async function realWorldEmailAccuracy() {
  const cases = loadCases("email").filter((c) => !only || only.has(c.id));
  const checks = checksOf("email");
  const agreement = new Agreement("email", checks);
  const methods = new MethodTally();
  await fewAtATime(cases, async (c) => {
    const { raw, envelopeFrom } = await composeEmailCase(c);
    const run = await runEmailJob(raw, envelopeFrom, checks);
    if ("why" in run) agreement.failedToRun(c.id, run.why);
    else {
      agreement.score(c.id, c.labels, run.results);
      methods.add(c.id, run.results);
      scoreJudge(`real-world/email/${c.id}`, (check) => c.labels[check]?.expect, run.results);
    }
  });
  agreement.report(
    `Real-world email corpus (corpus/email): ${cases.length} cases, ${checks.length} checks each; not run (composed unsigned on loopback): email-authentication`,
  );
  methods.report("Real-world email corpus, rows by deciding method");
  printLatencies(`all ${checks.length} checks`);
}
