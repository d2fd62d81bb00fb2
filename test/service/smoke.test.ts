import { afterAll, beforeAll, expect, test } from "bun:test";
import { htmlJob, startServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

test("healthz answers once the process serves", async () => {
  const res = await server.api("GET", "/healthz");
  expect(res.status).toBe(200);
});

test("a static_html job runs web-essentials in Chromium and charges one credit per check", async () => {
  const { apiKey } = await server.signup();
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob('<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>', undefined, {
      validationSetId: "web-essentials",
    }),
  });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe("completed");
  expect(res.body.results).toHaveLength(9);
  expect(res.body.credits).toEqual({ charged: 9, refunded: 0, net: 9 });
  const credits = await server.api("GET", "/api/credits", { key: apiKey });
  expect(credits.body.balance).toBe(991);
});
