/**
 * Runs ACT test cases through Assay's HTTP API: the cases (corpus/act) served from loopback at the path they have
 * on w3.org, so that their root-relative links resolve; each case a url job selecting the checks its rule's
 * mapping names, on a real server with real Chromium (test/support/harness.ts), decided by judge.ts.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import { startServer } from "../../test/support/harness";
import { ACT_MAPPING } from "./mapping";
import { decide, type CaseResult, type CheckResult, type TestCase } from "./judge";

export const ACT_ROOT = join(import.meta.dir, "..", "..", "corpus", "act");
const PREFIX = "/WAI/content-assets/wcag-act-rules/";

/** The commit of w3c/wcag-act-rules the cases were taken at, as corpus/act/README.md records it. */
export const TESTCASES_COMMIT = /commit ([0-9a-f]{40})/.exec(readFileSync(join(ACT_ROOT, "README.md"), "utf8"))![1]!;

export function loadTestcases(): TestCase[] {
  return (JSON.parse(readFileSync(join(ACT_ROOT, "testcases.json"), "utf8")) as { testcases: TestCase[] }).testcases;
}

/** Every case's decision, in the order given, `width` jobs at a time. */
export async function runCases(cases: TestCase[], width = 2): Promise<CaseResult[]> {
  const files = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      if (!path.startsWith(PREFIX)) return new Response("not found", { status: 404 });
      const file = join(ACT_ROOT, normalize(path.slice(PREFIX.length)).replace(/^(\.\.[/\\])+/, ""));
      if (!file.startsWith(ACT_ROOT) || !existsSync(file) || statSync(file).isDirectory())
        return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
  const server = await startServer({
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
    ASSAY_SIGNUP_CREDITS: "100000000",
    ASSAY_BROWSER_POOL_SIZE: String(width),
  });
  try {
    const { apiKey } = await server.signup("act@example.com");
    const runCase = async (c: TestCase): Promise<CaseResult> => {
      const mapping = ACT_MAPPING[c.ruleId];
      if (!mapping) return { testcase: c, decision: { outcome: "untested", decidedBy: "no mapping" } };
      const validations = mapping.procedures.map((p) => ({ id: p.check, parameters: p.parameters ?? {} }));
      const url = `http://127.0.0.1:${files.port}${PREFIX}${c.relativePath}`;
      const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "url", url, validations } });
      if (res.status !== 200)
        return { testcase: c, decision: decide(mapping, null, `HTTP ${res.status} ${JSON.stringify(res.body)}`) };
      return { testcase: c, decision: decide(mapping, res.body.results as CheckResult[]) };
    };
    const results: CaseResult[] = new Array(cases.length);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        for (let i = next++; i < cases.length; i = next++) {
          results[i] = await runCase(cases[i]!);
          if (++done % 100 === 0) console.error(`${done}/${cases.length} cases`);
        }
      }),
    );
    return results;
  } finally {
    await server.stop();
    files.stop(true);
  }
}
