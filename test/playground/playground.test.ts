import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { playgroundCookie } from "../../src/operations/session-cookie";
import {
  eventCount,
  expectError,
  startServer,
  tempDataDir,
  type ApiResponse,
  type TestServer,
} from "../support/harness";

/**
 * The anonymous playground over HTTP: POST /api/playground/runs runs the configured checks (web-essentials) at one
 * size on a URL or pasted HTML, with no key, no credits and no events; GET reads the run back while it is kept.
 * Bad bodies get the job request's codes; the session cap and the per-address limit answer their 429s, and a
 * refused run counts against neither.
 */
setDefaultTimeout(120_000);

const TWO_H1 =
  "<!doctype html><html lang=en><head><title>Two headings</title><meta name=viewport content='width=device-width'></head><body><h1>One</h1><h1>Two</h1></body></html>";
const htmlRun = { html: TWO_H1, baseUrl: "https://example.com/" };

/** A POST of the playground, as a browser with this Cookie header (none: a visitor without a session). */
const post = (server: TestServer, body: unknown, cookie?: string) =>
  server.api("POST", "/api/playground/runs", { body, headers: cookie ? { cookie } : {} });

/** The session cookie a first run sets, as a browser sends it back. */
function sessionCookie(res: ApiResponse): string {
  const set = res.headers.get("set-cookie");
  expect(set).toMatch(/^assay_playground=[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  return set!.split(";")[0]!;
}

describe("the playground, 2 runs per session and 3 per address", () => {
  let server: TestServer;
  beforeAll(async () => {
    // Loopback open to the checks, so a url run can check this server's own /playground page.
    server = await startServer({
      ASSAY_ALLOW_PRIVATE_TARGETS: "1",
      ASSAY_PLAYGROUND_RUNS_PER_SESSION: "2",
      ASSAY_PLAYGROUND_RUNS_PER_ADDRESS: "3",
      ASSAY_PLAYGROUND_WINDOW_SECONDS: "600",
    });
  });
  afterAll(() => server.stop());

  test("bad bodies get the job request's 400s, and neither run nor count", async () => {
    const before = eventCount(server);
    expectError(
      await server.api("POST", "/api/playground/runs", { rawBody: "url=x", headers: { "content-type": "text/plain" } }),
      400,
      "INVALID_REQUEST_BODY",
    );
    expectError(await post(server, { url: 42 }), 400, "INVALID_REQUEST_BODY");
    const unknown = await post(server, { ...htmlRun, type: "static_html" });
    expectError(unknown, 400, "UNKNOWN_FIELD");
    expect(unknown.body.details).toEqual({ unknownFields: ["type"] });
    expectError(await post(server, {}), 400, "JOB_SUBJECT_REQUIRED");
    expectError(await post(server, { html: TWO_H1 }), 400, "JOB_SUBJECT_REQUIRED");
    expectError(await post(server, { ...htmlRun, url: "https://example.com/" }), 400, "JOB_ACCEPTS_ONE_SUBJECT");
    expectError(await post(server, { ...htmlRun, validations: ["no-such-check"] }), 400, "VALIDATION_NOT_RUNNABLE");
    const outside = await post(server, { ...htmlRun, validations: ["single-h1", "broken-links"] });
    expectError(outside, 400, "INVALID_ENUM_VALUE");
    expect(outside.body.details).toMatchObject({
      field: "validations",
      values: ["broken-links"],
      allowedValues: expect.arrayContaining(["single-h1", "page-title"]),
    });
    // Private networks stay refused even with loopback opened to tests.
    const privateUrl = await post(server, { url: "http://10.0.0.1/" });
    expectError(privateUrl, 400, "PLAYGROUND_INVALID_URL");
    expect(privateUrl.body.details.reason).toBe("private");
    expect(eventCount(server)).toBe(before);
  });

  test("runs answer their verdicts, are read back with their screenshot, and append no event", async () => {
    const before = eventCount(server);
    const first = await post(server, htmlRun);
    expect(first.status).toBe(201);
    const cookie = sessionCookie(first);
    const run = first.body;
    expect(run).toMatchObject({
      type: "static_html",
      subject: { baseUrl: "https://example.com/", htmlBytes: TWO_H1.length },
      viewport: "desktop-md",
      status: "completed",
    });
    expect(run.runId).toMatch(/^pgr_/);
    expect(run.results.map((r: { validationId: string }) => r.validationId).sort()).toEqual([
      "heading-order",
      "html-lang",
      "image-alt-text",
      "meta-description",
      "no-lorem-ipsum",
      "no-unrendered-placeholders",
      "page-title",
      "single-h1",
      "viewport-meta",
    ]);
    const singleH1 = run.results.find((r: { validationId: string }) => r.validationId === "single-h1");
    expect(singleH1).toMatchObject({ verdict: "fail", reason: expect.stringContaining("h1") });
    expect(run.summary).toEqual({ pass: expect.any(Number), fail: expect.any(Number), error: 0 });
    expect(run.summary.pass + run.summary.fail).toBe(9);

    const read = await server.api("GET", `/api/playground/runs/${run.runId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(run);
    expect(run.screenshotUrl).toBe(`${server.baseUrl}/api/playground/runs/${run.runId}/screenshots/desktop-md`);
    const shot = await fetch(run.screenshotUrl);
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await shot.arrayBuffer()).slice(0, 2)]).toEqual([0xff, 0xd8]);
    expectError(
      await server.api("GET", `/api/playground/runs/${run.runId}/screenshots/mobile-sm`),
      404,
      "STORAGE_OBJECT_NOT_FOUND",
    );
    expectError(await server.api("GET", "/api/playground/runs/pgr_unknown"), 404, "PLAYGROUND_RUN_NOT_FOUND");
    expectError(
      await server.api("GET", "/api/playground/runs/pgr_unknown/screenshots/desktop-md"),
      404,
      "PLAYGROUND_RUN_NOT_FOUND",
    );

    // A url run of some of the checks, in the same session: its cookie is kept, not replaced.
    const second = await post(
      server,
      { url: `${server.baseUrl}/playground`, validations: ["single-h1", "page-title"] },
      cookie,
    );
    expect(second.status).toBe(201);
    expect(second.headers.get("set-cookie")).toBeNull();
    expect(second.body).toMatchObject({
      type: "url",
      subject: { url: `${server.baseUrl}/playground` },
      summary: { pass: 2, fail: 0, error: 0 },
    });

    // The session used its 2 runs: refused, with no Retry-After (waiting does not help), and not counted by address.
    const capped = await post(server, htmlRun, cookie);
    expectError(capped, 429, "PLAYGROUND_LIMIT_REACHED");
    expect(capped.body.details).toEqual({ limit: 2, used: 2 });
    expect(capped.headers.get("retry-after")).toBeNull();

    // Clearing the cookie escapes the session cap: a new session, the address's third run.
    const fresh = await post(server, htmlRun);
    expect(fresh.status).toBe(201);
    const other = sessionCookie(fresh);
    expect(other).not.toBe(cookie);

    // But not the address limit, with or without the new cookie.
    for (const again of [other, undefined]) {
      const limited = await post(server, htmlRun, again);
      expectError(limited, 429, "PLAYGROUND_RATE_LIMITED");
      expect(limited.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: 3, windowSeconds: 600 });
      expect(limited.body.details.retryAfterSeconds).toBeGreaterThan(0);
      expect(limited.body.details.retryAfterSeconds).toBeLessThanOrEqual(600);
      expect(limited.headers.get("retry-after")).toBe(String(limited.body.details.retryAfterSeconds));
    }
    // No event at all: no job, no charge, no ledger entry.
    expect(eventCount(server)).toBe(before);
  });
});

describe("runs kept 2 s, at most 1, loopback refused", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_PLAYGROUND_RUN_TTL_SECONDS: "2", ASSAY_PLAYGROUND_MAX_RUNS: "1" });
  });
  afterAll(() => server.stop());

  test("a loopback URL is PLAYGROUND_INVALID_URL", async () => {
    const refused = await post(server, { url: `${server.baseUrl}/playground` });
    expectError(refused, 400, "PLAYGROUND_INVALID_URL");
    expect(refused.body.details).toEqual({ field: "url", reason: "loopback" });
  });

  test("a newer run pushes the oldest out, and a run expires with its screenshot", async () => {
    const first = (await post(server, { ...htmlRun, validations: ["single-h1"] })).body;
    const second = (await post(server, { ...htmlRun, validations: ["single-h1"] })).body;
    expectError(await server.api("GET", `/api/playground/runs/${first.runId}`), 404, "PLAYGROUND_RUN_NOT_FOUND");
    expect((await server.api("GET", `/api/playground/runs/${second.runId}`)).status).toBe(200);
    expect((await fetch(second.screenshotUrl)).status).toBe(200);
    await Bun.sleep(Date.parse(second.expiresAt) - Date.now() + 50);
    expectError(await server.api("GET", `/api/playground/runs/${second.runId}`), 404, "PLAYGROUND_RUN_NOT_FOUND");
    expectError(
      await server.api("GET", `/api/playground/runs/${second.runId}/screenshots/desktop-md`),
      404,
      "PLAYGROUND_RUN_NOT_FOUND",
    );
  });
});

test("a playground setting the catalog cannot honour stops the start, naming it", async () => {
  const dataDir = tempDataDir();
  try {
    for (const [name, value, said] of [
      ["ASSAY_PLAYGROUND_CHECKS", "no-such-check", /ASSAY_PLAYGROUND_CHECKS: "no-such-check"/],
      ["ASSAY_PLAYGROUND_CHECKS", "page-title,logo-usage", /ASSAY_PLAYGROUND_CHECKS: "logo-usage"/],
      ["ASSAY_PLAYGROUND_CHECKS", "email-accessibility", /ASSAY_PLAYGROUND_CHECKS: "email-accessibility"/],
      [
        "ASSAY_PLAYGROUND_VIEWPORT",
        "huge",
        /ASSAY_PLAYGROUND_VIEWPORT must be one of mobile-sm, tablet-portrait, desktop-md/,
      ],
    ] as const) {
      await expect(startServer({ DATA_DIR: dataDir, [name]: value })).rejects.toThrow(said);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("behind https (PUBLIC_BASE_URL) the playground's cookie is also Secure", () => {
  expect(playgroundCookie("a".repeat(32), 60, { publicBaseUrl: "https://assay.example" })).toBe(
    `assay_playground=${"a".repeat(32)}; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=60`,
  );
});
