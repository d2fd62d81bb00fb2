import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_BODY_BYTES } from "../../src/contracts/limits";
import { htmlJob, startServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

test("a body over the size cap is REQUEST_TOO_LARGE (413): nothing parsed, charged or created", async () => {
  const { apiKey } = await server.signup();
  const huge = `<html><body><h1>x</h1>${"<p>padding</p>".repeat(Math.ceil(MAX_BODY_BYTES / 14) + 10)}</body></html>`;
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(huge, ["page-title"]) });
  expect(res.status).toBe(413);
  expect(res.body.code).toBe("REQUEST_TOO_LARGE");
  expect(res.body.details.limitBytes).toBe(MAX_BODY_BYTES);
  expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
  const credits = await server.api("GET", "/api/credits", { key: apiKey });
  expect(credits.body.balance).toBe(1000);
  const jobs = await server.api("GET", "/api/jobs", { key: apiKey });
  expect(jobs.body.jobs).toEqual([]);
});
