import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventsOf, expectError, htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * Admission: a browser renders ASSAY_BROWSER_PAGES pages at once, further jobs wait their turn in arrival order, and
 * past ASSAY_BROWSER_QUEUE waiting a webpage job is refused before its charge. One browser, one page, one waiting.
 */
let server: TestServer;
let apiKey: string;
let site: ReturnType<typeof Bun.serve>;
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
let slowAsked!: () => void;
const slowRequested = new Promise<void>((resolve) => (slowAsked = resolve));

beforeAll(async () => {
  // A page whose document is held until the test lets it go: the job rendering it keeps the only turn meanwhile.
  site = Bun.serve({
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname === "/slow") {
        slowAsked();
        await released;
      }
      return new Response("<!doctype html><html lang=en><title>Held</title><h1>Held</h1></html>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  server = await startServer({
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
    ASSAY_BROWSER_POOL_SIZE: "1",
    ASSAY_BROWSER_PAGES: "1",
    ASSAY_BROWSER_QUEUE: "1",
  });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  release();
  await server?.stop();
  site?.stop(true);
});

test("jobs wait their turn in arrival order; past the queue a job is refused with 503 before its charge", async () => {
  const finished: string[] = [];
  const held = server
    .api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "url", url: `http://127.0.0.1:${site.port}/slow`, validations: ["page-title"] },
    })
    .then((r) => {
      finished.push("held");
      return r;
    });
  await slowRequested;
  const queued = server
    .api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob("<!doctype html><html lang=en><title>Queued</title><h1>Queued</h1></html>", ["page-title"]),
    })
    .then((r) => {
      finished.push("queued");
      return r;
    });
  while (server.assay.pool.waiting < 1) await Bun.sleep(10);

  const balance = (await server.api("GET", "/api/credits", { key: apiKey })).body.balance;
  const events = eventsOf(server).length;
  const refused = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob("<!doctype html><html lang=en><title>Refused</title></html>", ["page-title"]),
  });
  expectError(refused, 503, "SERVICE_UNAVAILABLE");
  expect(refused.body.retryable).toBe(true);
  expect(refused.body.details).toEqual({ dependency: "chromium", waiting: 1, retryAfterSeconds: 5 });
  expect(refused.headers.get("retry-after")).toBe("5");
  // Nothing charged, nothing recorded for the refused job.
  expect((await server.api("GET", "/api/credits", { key: apiKey })).body.balance).toBe(balance);
  expect(eventsOf(server).length).toBe(events);
  // An email job renders later, when its message comes: it is accepted while pages wait.
  const email = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validations: ["email-subject-length"] },
  });
  expect(email.status).toBe(200);

  release();
  const [first, second] = await Promise.all([held, queued]);
  expect([first.status, first.body.results[0].verdict, second.status, second.body.results[0].verdict]).toEqual([
    200,
    "pass",
    200,
    "pass",
  ]);
  expect(finished).toEqual(["held", "queued"]);
  expect(server.assay.pool.waiting).toBe(0);
});
