/**
 * Verdict accuracy on the labelled corpus (../shared/corpus): every web case is served from loopback and
 * run as a url job through the real API with every web check that needs no parameters; every email case's
 * message.eml is delivered over SMTP (raw, as sent) to a fresh email job selecting every email check that needs
 * no parameters. Prints, per subject and defect type, which check caught it, the misses, and every false fail
 * on a clean case. Exit 0 whenever it could measure (it measures, it does not judge); 1 when the corpus is missing.
 *
 * ASSAY_ACCURACY_SUBJECTS=email (or web) runs one subject only.
 */
import { readFileSync, existsSync } from "node:fs";
import { join, normalize } from "node:path";
import { rmSync } from "node:fs";
import nodemailer from "nodemailer";
import { startServer, tempDataDir, type TestServer } from "../test/support/harness";
import { validationModules } from "../src/catalog/registry";

const CORPUS = process.env.ASSAY_CORPUS_DIR ?? join(import.meta.dir, "..", "..", "shared", "corpus");

/** Which validation owns each (subject, defect) of the taxonomy. */
export const DEFECT_OWNERS: Record<string, string> = {
  "web/lorem-ipsum": "no-lorem-ipsum",
  "web/unrendered-placeholder": "no-unrendered-placeholders",
  "web/image-missing-alt": "image-alt-text",
  "web/image-broken": "broken-images",
  "web/link-broken": "broken-links",
  "web/low-contrast-text": "color-contrast",
  "web/horizontal-overflow-mobile": "no-horizontal-overflow",
  "web/missing-title": "page-title",
  "web/missing-meta-description": "meta-description",
  "web/missing-lang": "html-lang",
  "web/missing-viewport-meta": "viewport-meta",
  "web/multiple-h1": "single-h1",
  "web/no-h1": "single-h1",
  "web/heading-level-skip": "heading-order",
  "web/form-input-unlabeled": "form-labels",
  "web/tiny-body-text": "font-size-body-min-max",
  "web/mixed-content": "mixed-content",
  "web/console-error": "console-errors",
  "web/text-overlap": "layout-not-broken",
  "web/cta-hidden-mobile": "cta-visible",
  "web/missing-og-tags": "open-graph-tags",
  "web/noindex-accidental": "no-accidental-noindex",
  "web/misspelling": "spelling",
  "email/missing-list-unsubscribe-header": "email-list-unsubscribe-header",
  "email/missing-one-click-unsubscribe": "email-one-click-unsubscribe",
  "email/no-unsubscribe-link-in-body": "email-unsubscribe-link",
  "email/missing-postal-address": "email-postal-address",
  "email/no-plain-text-part": "email-plain-text-part",
  "email/html-over-102kb": "email-gmail-clipping",
  "email/missing-preheader": "email-preheader",
  "email/unrendered-merge-tag": "email-no-merge-tags",
  "email/image-missing-alt": "email-image-alt-text",
  "email/insecure-link": "email-secure-links",
  "email/utm-missing": "email-utm-tracking",
  "email/subject-too-long": "email-subject-length",
  "email/lorem-ipsum": "email-no-lorem-ipsum",
  "email/missing-dark-mode-meta": "email-dark-mode-support",
  "email/tiny-text": "email-font-size",
  "email/missing-html-lang": "email-html-lang",
  "email/layout-table-no-role": "email-layout-tables-presentation",
  "email/from-display-name-missing": "email-from-display-name",
  "email/reply-to-invalid": "email-reply-to-valid",
  "email/broken-mobile-layout": "email-mobile-responsive",
};

/** Checks whose judgment also covers another defect type: a fail there is a true detection, not a false fail. */
export const ALSO_COVERS: Record<string, string[]> = {
  "layout-not-broken": ["web/image-broken"],
  "responsive-consistency": ["web/cta-hidden-mobile"],
  // axe-core's WCAG A/AA rules include image-alt, color-contrast, html-has-lang, document-title and label.
  "accessibility-wcag": ["web/image-missing-alt", "web/low-contrast-text", "web/missing-lang", "web/missing-title", "web/form-input-unlabeled"],
  // With images blocked, an image without alt text is a blank box: the images-off render judges the same defect.
  "email-images-off-readable": ["email/image-missing-alt"],
};

/**
 * Checks that own or also cover a taxonomy defect are scored against the labels. The labels say nothing
 * about what other checks judge (dark-mode legibility, canonical URLs…), so their fails are listed apart,
 * unscored, for a person to read: "clean" means free of taxonomy defects, not of everything.
 */
const SCORED = new Set([...Object.values(DEFECT_OWNERS), ...Object.keys(ALSO_COVERS)]);

interface Case {
  path: string;
  subject: "web" | "email";
  defects: string[];
  clean: boolean;
}

interface ResultRow {
  validationId: string;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  reasoning: string;
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
    for (const [check, covered] of Object.entries(ALSO_COVERS)) if (c.defects.some((d) => covered.includes(key(d)))) expectedFail.add(check);
    for (const d of c.defects) {
      const owner = DEFECT_OWNERS[key(d)] ?? "(no owner)";
      const r = verdicts.get(owner);
      if (r?.verdict === "fail") this.caught.set(key(d), (this.caught.get(key(d)) ?? 0) + 1);
      else this.missed.push({ defect: key(d), path: c.path, owner, why: r ? `${r.verdict}: ${r.reason ?? r.reasoning}` : "check not built yet" });
    }
    for (const [check, r] of verdicts) {
      const row = { path: c.path, check, reason: r.reason ?? "", clean: c.clean };
      if (r.verdict === "fail" && !expectedFail.has(check)) (SCORED.has(check) ? this.falseFails : this.unscored).push(row);
      if (r.verdict === "error") this.errors.push(row);
    }
  }

  report(cases: Case[], header: string): void {
    const counts = new Map<string, number>();
    for (const c of cases) for (const d of c.defects) counts.set(`${this.subject}/${d}`, (counts.get(`${this.subject}/${d}`) ?? 0) + 1);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    const clean = (rows: Row[]) => rows.filter((r) => r.clean).length;
    const list = (title: string, rows: Row[]) => {
      console.log(`\n${title}`);
      for (const r of rows.sort(byPath)) console.log(`  ${r.clean ? "[clean] " : ""}${r.path}: ${r.check} → ${r.reason}`);
    };
    console.log(`\n${header}\n`);
    console.log("defect".padEnd(42), "owner".padEnd(34), "caught");
    for (const [defect, n] of [...counts].sort()) console.log(defect.padEnd(42), (DEFECT_OWNERS[defect] ?? "-").padEnd(34), `${this.caught.get(defect) ?? 0}/${n}`);
    console.log(`\nMisses (${this.missed.length}):`);
    for (const m of this.missed.sort(byPath)) console.log(`  ${m.defect} in ${m.path}: ${m.owner} → ${m.why}`);
    list(`False fails (${this.falseFails.length}; on clean cases: ${clean(this.falseFails)}):`, this.falseFails);
    list(`Errors (${this.errors.length}):`, this.errors);
    if (this.unscored.length) list(`Fails outside the taxonomy (${this.unscored.length}, not scored; on clean cases: ${clean(this.unscored)}):`, this.unscored);
    const totalDefects = [...counts.values()].reduce((a, b) => a + b, 0);
    const totalCaught = [...this.caught.values()].reduce((a, b) => a + b, 0);
    const label = this.subject === "web" ? "Summary" : "Email summary";
    console.log(`\n${label}: caught ${totalCaught}/${totalDefects} labelled defects; ${this.falseFails.length} false fail(s), ${clean(this.falseFails)} on clean cases; ${this.errors.length} error row(s).`);
  }
}

if (!existsSync(join(CORPUS, "index.json"))) {
  console.error(
    `accuracy: no labelled corpus at ${CORPUS} (no index.json there). The corpus is not part of this repository: ` +
      "put it at ../shared/corpus beside the repository, or set ASSAY_CORPUS_DIR to its directory.",
  );
  process.exit(1);
}
const index = JSON.parse(readFileSync(join(CORPUS, "index.json"), "utf8")) as { cases: Case[] };
const webChecks = validationModules.filter((m) => m.meta.subjectType === "url" && !m.meta.requiresConfiguration).map((m) => m.meta.id);

const corpusServer = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const path = normalize(decodeURIComponent(new URL(req.url).pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(CORPUS, path);
    if (!file.startsWith(CORPUS) || !existsSync(file)) return new Response("not found", { status: 404 });
    return new Response(Bun.file(file));
  },
});

const dataDir = tempDataDir();
const server = await startServer({ DATA_DIR: dataDir, ASSAY_ALLOW_PRIVATE_TARGETS: "1", ASSAY_SIGNUP_CREDITS: "1000000" });
const { apiKey } = await server.signup("accuracy@example.com");

const subjects = new Set((process.env.ASSAY_ACCURACY_SUBJECTS ?? "web,email").split(",").map((x) => x.trim()));

if (subjects.has("web")) {
  const webCases = index.cases.filter((c) => c.subject === "web");
  const card = new Scorecard("web");
  for (const c of webCases) {
    const url = `http://127.0.0.1:${corpusServer.port}/${c.path}/page.html`;
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "url", url, validations: webChecks } });
    if (res.status !== 200) {
      console.error(`${c.path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      continue;
    }
    card.score(c, res.body.results);
  }
  card.report(webCases, `Web corpus: ${webCases.length} cases, checks run: ${webChecks.length}`);
}

if (subjects.has("email")) await emailAccuracy(server, apiKey);

await server.stop();
corpusServer.stop(true);
rmSync(dataDir, { recursive: true, force: true });

/**
 * The email corpus: each message.eml goes over SMTP exactly as stored (nodemailer's envelope + raw) to a fresh
 * email job selecting every email check that needs no parameters, a few cases at a time.
 *
 * Left out: checks that read SPF/DKIM/DMARC ("authentication"). The corpus messages are replayed from loopback,
 * unsigned, by a client that is not their sender, so those verdicts measure the replay, not the message (the
 * taxonomy has no authentication defect either); test/email-authentication.test.ts covers them.
 */
async function emailAccuracy(server: TestServer, apiKey: string) {
  const emailCases = index.cases.filter((c) => c.subject === "email");
  const notMeasured = validationModules.filter((m) => m.meta.subjectType === "email" && (m.meta.needs as string[]).includes("authentication"));
  const emailChecks = validationModules
    .filter((m) => m.meta.subjectType === "email" && !m.meta.requiresConfiguration && !notMeasured.includes(m))
    .map((m) => m.meta.id);
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
  const card = new Scorecard("email");
  const latencies: number[] = [];
  let done = 0;

  const runCase = async (c: Case) => {
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: emailChecks } });
    if (res.status !== 200) {
      console.error(`${c.path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    const raw = readFileSync(join(CORPUS, c.path, "message.eml"));
    const returnPath = /^Return-Path:\s*<([^>]*)>/im.exec(raw.subarray(0, 8192).toString("latin1"))?.[1] ?? "sender@example.com";
    await transport.sendMail({ envelope: { from: returnPath, to: [res.body.testEmail] }, raw });
    // sendMail resolves on the reply to the end of DATA: from here to a completed job is the inbox's latency.
    const sent = performance.now();
    let job: any;
    for (let i = 0; i < 2400; i++) {
      job = (await server.api("GET", `/api/jobs?jobId=${res.body.jobId}`, { key: apiKey })).body.jobs[0];
      if (job.status !== "pending") break;
      await Bun.sleep(25);
    }
    latencies.push(performance.now() - sent);
    done++;
    if (job.status !== "completed") {
      console.error(`${c.path}: job ${job.jobId} is ${job.status}${job.interruption ? `: ${job.interruption}` : ""}`);
      return;
    }
    card.score(c, job.results);
  };

  // A few at a time, in corpus order for the report.
  const queue = [...emailCases];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) await runCase(c);
    }),
  );
  transport.close();

  const notRun = notMeasured.length ? `; not run on the corpus (its messages are replayed unsigned from loopback): ${notMeasured.map((m) => m.meta.id).join(", ")}` : "";
  card.report(emailCases, `Email corpus: ${emailCases.length} cases (${done} completed), checks run: ${emailChecks.length}${notRun}`);
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!) : 0);
  console.log(`End of DATA to completed job, all ${emailChecks.length} checks, 4 cases at a time: p50 ${pct(50)} ms, p95 ${pct(95)} ms.`);
  const kindOf = (id: string) => validationModules.find((m) => m.meta.id === id)?.meta.kind ?? "functional";
  for (const kind of ["functional", "visual"] as const) {
    const ff = card.falseFails.filter((f) => kindOf(f.check) === kind);
    const er = card.errors.filter((e) => kindOf(e.check) === kind);
    const run = emailChecks.filter((id) => kindOf(id) === kind).length;
    console.log(`${kind} checks (${run}): ${ff.length} false fail(s), ${ff.filter((f) => f.clean).length} on clean cases; ${er.length} error row(s).`);
  }
}
