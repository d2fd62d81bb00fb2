/**
 * Verdict accuracy on the labelled corpus (../shared/corpus): every web case is served from loopback and
 * run as a url job through the real API with every web check that needs no parameters. Prints, per defect
 * type, which check caught it, the misses, and every false fail on a clean case. Exit 0 always: it measures.
 */
import { readFileSync, existsSync } from "node:fs";
import { join, normalize } from "node:path";
import { rmSync } from "node:fs";
import { startServer, tempDataDir } from "../test/support/harness";
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
};

/** Checks whose judgment also covers another defect type: a fail there is a true detection, not a false fail. */
export const ALSO_COVERS: Record<string, string[]> = {
  "layout-not-broken": ["web/image-broken"],
  "responsive-consistency": ["web/cta-hidden-mobile"],
  // axe-core's WCAG A/AA rules include image-alt, color-contrast, html-has-lang, document-title and label.
  "accessibility-wcag": ["web/image-missing-alt", "web/low-contrast-text", "web/missing-lang", "web/missing-title", "web/form-input-unlabeled"],
};

interface Case {
  path: string;
  subject: "web" | "email";
  defects: string[];
  clean: boolean;
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

const caught = new Map<string, number>();
const missed: Array<{ defect: string; path: string; owner: string; why: string }> = [];
const falseFails: Array<{ path: string; check: string; reason: string; clean: boolean }> = [];
const errors: Array<{ path: string; check: string; reason: string }> = [];
let cases = 0;

for (const c of index.cases.filter((c) => c.subject === "web")) {
  cases++;
  const url = `http://127.0.0.1:${corpusServer.port}/${c.path}/page.html`;
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "url", url, validations: webChecks } });
  if (res.status !== 200) {
    console.error(`${c.path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    continue;
  }
  const verdicts = new Map<string, any>(res.body.results.map((r: any) => [r.validationId, r]));
  const expectedFail = new Set(c.defects.map((d) => DEFECT_OWNERS[`web/${d}`]).filter(Boolean));
  for (const [check, defects] of Object.entries(ALSO_COVERS)) if (defects.some((d) => c.defects.includes(d.slice(4)))) expectedFail.add(check);
  for (const d of c.defects) {
    const owner = DEFECT_OWNERS[`web/${d}`] ?? "(no owner)";
    const r = verdicts.get(owner);
    if (r?.verdict === "fail") caught.set(`web/${d}`, (caught.get(`web/${d}`) ?? 0) + 1);
    else missed.push({ defect: `web/${d}`, path: c.path, owner, why: r ? `${r.verdict}: ${r.reason ?? r.reasoning}` : "check not built yet" });
  }
  for (const [check, r] of verdicts) {
    if (r.verdict === "fail" && !expectedFail.has(check)) falseFails.push({ path: c.path, check, reason: r.reason, clean: c.clean });
    if (r.verdict === "error") errors.push({ path: c.path, check, reason: r.reason });
  }
}

const counts = new Map<string, number>();
for (const c of index.cases.filter((c) => c.subject === "web")) for (const d of c.defects) counts.set(`web/${d}`, (counts.get(`web/${d}`) ?? 0) + 1);

console.log(`\nWeb corpus: ${cases} cases, checks run: ${webChecks.length}\n`);
console.log("defect".padEnd(34), "owner".padEnd(26), "caught");
for (const [defect, n] of [...counts].sort()) {
  console.log(defect.padEnd(34), (DEFECT_OWNERS[defect] ?? "-").padEnd(26), `${caught.get(defect) ?? 0}/${n}`);
}
console.log(`\nMisses (${missed.length}):`);
for (const m of missed) console.log(`  ${m.defect} in ${m.path}: ${m.owner} → ${m.why}`);
console.log(`\nFalse fails (${falseFails.length}; on clean cases: ${falseFails.filter((f) => f.clean).length}):`);
for (const f of falseFails) console.log(`  ${f.clean ? "[clean] " : ""}${f.path}: ${f.check} → ${f.reason}`);
console.log(`\nErrors (${errors.length}):`);
for (const e of errors) console.log(`  ${e.path}: ${e.check} → ${e.reason}`);
const totalDefects = [...counts.values()].reduce((a, b) => a + b, 0);
const totalCaught = [...caught.values()].reduce((a, b) => a + b, 0);
console.log(`\nSummary: caught ${totalCaught}/${totalDefects} labelled defects; ${falseFails.length} false fail(s), ${falseFails.filter((f) => f.clean).length} on clean cases; ${errors.length} error row(s).`);

await server.stop();
corpusServer.stop(true);
rmSync(dataDir, { recursive: true, force: true });
