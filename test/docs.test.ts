import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
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

test("the catalog holds every error code of the interface specification", () => {
  const spec = readFileSync(join(ROOT, "..", "shared", "spec", "interface.md"), "utf8");
  const section = spec.slice(spec.indexOf("## 7. Errors"), spec.indexOf("## 8. Limits"));
  const specCodes = [...section.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  expect(specCodes.length).toBeGreaterThan(50);
  const ours = new Map(errorCatalog.map((e) => [e.code, e.status]));
  for (const [code, status] of specCodes) expect([code, ours.get(code as string)]).toEqual([code, status]);
});

test("an unknown route is a catalogued JSON 404", async () => {
  const res = await server.api("GET", "/api/nope");
  expect(res.status).toBe(404);
  expect(res.body.code).toBe("ROUTE_NOT_FOUND");
  for (const field of ["title", "message", "developerMessage", "requestId"]) expect(typeof res.body[field]).toBe("string");
  expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
});
