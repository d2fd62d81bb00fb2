import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generatedDocs } from "../src/docs/generate";
import { errorCatalog } from "../src/errors/catalog";
import { ROOT, startServer, type TestServer } from "./support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

for (const [path, render] of Object.entries(generatedDocs)) {
  test(`${path} matches its source (run \`npm run docs\` after changing it)`, () => {
    expect(readFileSync(join(ROOT, path), "utf8")).toBe(render());
  });
}

test("GET /api/errors lists every catalogued code with its status and guidance", async () => {
  const res = await server.api("GET", "/api/errors");
  expect(res.status).toBe(200);
  expect(res.body.errors.map((e: any) => [e.code, e.httpStatus])).toEqual(errorCatalog.map((e) => [e.code, e.status]));
  for (const e of res.body.errors) expect(e.guidance.length).toBeGreaterThan(10);
});

// The spec's error section, carried in the repository (a clean clone has no spec beside it).
const SPEC_ERRORS = join(ROOT, "test", "fixtures", "spec", "interface-errors.md");
const SPEC = join(ROOT, "..", "shared", "spec", "interface.md");
/** From "## 7. Errors" up to "## 8. Limits", or to the end (the copy stops there). */
function errorSection(markdown: string): string {
  const end = markdown.indexOf("## 8. Limits");
  return markdown.slice(markdown.indexOf("## 7. Errors"), end < 0 ? undefined : end);
}

test("the catalog holds every error code of the interface specification", () => {
  const section = errorSection(readFileSync(SPEC_ERRORS, "utf8"));
  const specCodes = [...section.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  expect(specCodes.length).toBeGreaterThan(50);
  const ours = new Map(errorCatalog.map((e) => [e.code, e.status]));
  for (const [code, status] of specCodes) expect([code, ours.get(code as string)]).toEqual([code, status]);
});

test.skipIf(!existsSync(SPEC))("the repository's copy of the spec's error section is the spec's, word for word", () => {
  expect(errorSection(readFileSync(SPEC_ERRORS, "utf8"))).toBe(errorSection(readFileSync(SPEC, "utf8")));
});

test("an unknown route is a catalogued JSON 404", async () => {
  const res = await server.api("GET", "/api/nope");
  expect(res.status).toBe(404);
  expect(res.body.code).toBe("ROUTE_NOT_FOUND");
  for (const field of ["title", "message", "developerMessage", "requestId"]) expect(typeof res.body[field]).toBe("string");
  expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
});
