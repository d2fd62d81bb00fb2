import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validationModules } from "../src/catalog/registry";
import { htmlJob, startServer, type TestServer } from "./support/harness";

/** Each web check runs its own pass and fail fixture as a real static_html job through the API. */
const FIXTURES = join(import.meta.dir, "fixtures", "web");
const webChecks = validationModules.filter((m) => m.meta.subjectType === "url");

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

test("every web check has a pass and a fail fixture", () => {
  const missing = webChecks
    .flatMap((m) => ["pass.html", "fail.html"].map((f) => join(m.meta.id, f)))
    .filter((p) => !existsSync(join(FIXTURES, p)));
  expect(missing).toEqual([]);
});

for (const m of webChecks) {
  describe(m.meta.id, () => {
    const paramsFile = join(FIXTURES, m.meta.id, "params.json");
    const parameters = existsSync(paramsFile) ? JSON.parse(readFileSync(paramsFile, "utf8")) : undefined;
    for (const expected of ["pass", "fail"] as const) {
      test(`${expected} fixture gives ${expected}`, async () => {
        const html = readFileSync(join(FIXTURES, m.meta.id, `${expected}.html`), "utf8");
        const entry = parameters ? { id: m.meta.id, parameters } : m.meta.id;
        const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, [entry]) });
        expect(res.status).toBe(200);
        const [result] = res.body.results;
        expect(result.validationId).toBe(m.meta.id);
        expect({ verdict: result.verdict, reasoning: result.reasoning }).toMatchObject({ verdict: expected });
        if (expected === "fail") {
          expect(result.reason.length).toBeGreaterThan(10);
          expect(result.findings.length).toBeGreaterThan(0);
        }
      });
    }
  });
}
