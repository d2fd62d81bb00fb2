import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * accessibility-wcag's language rules on real Chromium through the API: html-lang-matches-text (W3C ACT ucwvc8,
 * WCAG 3.1.1) and lang-matches-text (ACT off6ek, WCAG 3.1.2), each lang attribute's text judged by language detection
 * (src/validations/shared/language-of-text.ts). Fixtures: test/fixtures/web/accessibility-wcag/act/lang-*.html.
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "web", "accessibility-wcag", "act");

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

type Finding = { selector?: string; message: string; measured?: Record<string, unknown> };

async function run(page: string, standard = "wcag21aa") {
  const html = readFileSync(join(FIXTURES, page), "utf8");
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [{ id: "accessibility-wcag", parameters: { standard } }]),
  });
  expect(res.status).toBe(200);
  const r = res.body.results[0] as { verdict: string; reasoning: string; findings: Finding[] };
  const language = r.findings.filter((f) => String(f.measured?.rule).endsWith("lang-matches-text"));
  const list = (review: boolean) =>
    language
      .filter((f) => (f.measured?.outcome === "needs review") === review)
      .map((f) => `${f.measured?.rule} ${f.selector}`);
  return { ...r, language, violations: list(false), review: list(true) };
}

test('a page whose html says lang="nl" over a paragraph of English fails WCAG 3.1.1 (html-lang-matches-text), naming what was detected', async () => {
  const r = await run("lang-page-mismatch.html");
  expect(r.verdict).toBe("fail");
  expect(r.violations).toEqual(["html-lang-matches-text html"]);
  const f = r.language[0]!;
  expect(f.message).toContain('lang="nl" declares "nl"');
  expect(f.message).toContain("Method: language detection");
  expect(f.measured).toMatchObject({
    method: "language detection",
    declared: "nl",
    detected: "en",
    tags: ["wcag2a", "wcag311"],
  });
});

test("an English page with a German paragraph, language links and a hidden part passes; an ambiguous short sentence needs review", async () => {
  const r = await run("lang-parts-pass.html");
  expect({ verdict: r.verdict, violations: r.violations }).toEqual({ verdict: "pass", violations: [] });
  // "Paul put dire comment on tape" reads best as French: 24 letters are too few to fail lang="en-GB".
  expect(r.review).toEqual(["lang-matches-text #ambiguous"]);
  expect(r.reasoning).toContain("html-lang-matches-text");
});

test('a quote in English marked lang="fr" fails WCAG 3.1.2 (lang-matches-text); a Dutch phrase marked nl and a Spanish part with an English image name do not', async () => {
  const r = await run("lang-parts-fail.html");
  expect(r.verdict).toBe("fail");
  expect(r.violations).toEqual(["lang-matches-text blockquote"]);
  expect(r.language.find((f) => f.selector === "blockquote")!.measured).toMatchObject({
    declared: "fr",
    detected: "en",
  });
  expect(r.review).toEqual([]);
});

test("the parts' rule is WCAG AA: under wcag2a only the page's rule counts", async () => {
  const r = await run("lang-parts-fail.html", "wcag2a");
  expect({ verdict: r.verdict, violations: r.violations }).toEqual({ verdict: "pass", violations: [] });
});
