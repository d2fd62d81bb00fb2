import { afterAll, beforeAll, expect, test } from "bun:test";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * A test of one operation or one check runs without Chromium unless it needs it: the test server starts its
 * browsers with the first job that renders, and the operations below render nothing.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

test("catalog, account, estimate and refusals start no browser", async () => {
  const { apiKey } = await server.signup();
  const calls = [
    await server.api("GET", "/api/validations"),
    await server.api("GET", "/api/errors"),
    await server.api("GET", "/api/credits", { key: apiKey }),
    await server.api("POST", "/api/jobs/estimate", { key: apiKey, body: htmlJob("<p>hi</p>", ["page-title"]) }),
    await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob("<p>hi</p>", ["no-such-check"]) }),
  ];
  expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 200, 400]);
  expect(server.assay.pool.launched).toBe(0);
});

test("the first job that renders starts the pool", async () => {
  const { apiKey } = await server.signup();
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob("<title>t</title><p>hi</p>", ["page-title"]),
  });
  expect(res.status).toBe(200);
  expect(server.assay.pool.launched).toBeGreaterThan(0);
});
