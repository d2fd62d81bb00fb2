import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import plans from "../../src/catalog/plans.json";
import { signIn, startServerWithRelay } from "../support/mail-relay";
import { page } from "../support/pages";
import {
  eventCount,
  eventsOf,
  expectError,
  htmlJob,
  startServer,
  tempDataDir,
  uniqueEmail,
  type TestServer,
} from "../support/harness";

/**
 * Webpage checks judged in WebKit (WebKitGTK through WebKitWebDriver under Xvfb, every request through the guarded
 * proxy) as well as Chromium, through the API: the verdict, its findings per engine and size, the WebKit captures,
 * the price and the plan's gate, and the SSRF cases with nothing reaching a loopback listener.
 */

/** Wider than the phone only where the browser is WebKit (Safari's user agent has no "Chrome"). */
const BREAKS_IN_SAFARI = `<!doctype html><html><head><meta name="viewport" content="width=device-width">
<title>Safari only</title></head><body style="margin:0"><h1>Hello</h1>
<script>if (!/Chrome/.test(navigator.userAgent)) document.body.insertAdjacentHTML("beforeend",
  '<div id="safari-banner" style="width:900px;height:40px;background:#c00">wide</div>')</script></body></html>`;

const IN_BOTH = [
  { id: "no-horizontal-overflow", engines: ["chromium", "webkit"] },
  { id: "layout-not-broken", engines: ["chromium", "webkit"] },
];

let server: TestServer;
/** Loopback listeners: an HTTP one that logs every request, and a raw TCP one that counts every connection. */
let target: ReturnType<typeof Bun.serve>;
let tcp: Server;
let tcpPort: number;
let tcpConnections = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = await startServer();
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(`${req.method} ${path} ${/Chrome/.test(req.headers.get("user-agent") ?? "") ? "chromium" : "webkit"}`);
      if (path === "/to-metadata") return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
      if (path === "/to-private") return Response.redirect("http://10.0.0.1/x.gif", 302);
      return new Response("<p>reached</p>", { headers: { "content-type": "text/html" } });
    },
  });
  tcp = createServer((socket) => {
    tcpConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  tcpPort = (tcp.address() as { port: number }).port;
});

afterAll(async () => {
  await server?.stop();
  target?.stop(true);
  tcp?.close();
});

const balance = async (s: TestServer, key: string) => (await s.api("GET", "/api/credits", { key })).body.balance;

describe("webpage checks in WebKit", () => {
  test("a page that breaks only in Safari passes in Chromium and fails in WebKit, naming the engine and the size", async () => {
    const { apiKey } = await server.signup();
    const chromiumOnly = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(BREAKS_IN_SAFARI, ["no-horizontal-overflow"]),
    });
    expect(chromiumOnly.status).toBe(200);
    expect(chromiumOnly.body.results[0].verdict).toBe("pass");

    const body = htmlJob(BREAKS_IN_SAFARI, IN_BOTH);
    const estimate = await server.api("POST", "/api/jobs/estimate", { key: apiKey, body });
    expect(estimate.status).toBe(200);
    // Each check's catalog price (2), plus a WebKit render priced as one in an extra-credit client (2) at each of
    // its sizes: no-horizontal-overflow at mobile-sm, layout-not-broken at desktop-md.
    expect(estimate.body.lines).toEqual([
      { validationId: "no-horizontal-overflow", credits: 4 },
      { validationId: "layout-not-broken", credits: 4 },
    ]);
    const before = await balance(server, apiKey);
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body });
    expect(res.status).toBe(200);
    expect(res.body.credits).toEqual({ charged: 8, refunded: 0, net: 8 });
    expect(await balance(server, apiKey)).toBe(before - 8);

    const overflow = res.body.results.find((r: any) => r.validationId === "no-horizontal-overflow");
    expect(overflow.verdict).toBe("fail");
    expect(overflow.reason).toStartWith("In WebKit: At 375px the page is 900px wide");
    expect(overflow.reasoning).toContain("In Chromium: At mobile-sm the document is 375px wide");
    expect(overflow.findings).toContainEqual(
      expect.objectContaining({ engine: "webkit", viewport: "mobile-sm", selector: "#safari-banner" }),
    );
    expect(overflow.findings.every((f: any) => f.engine === "webkit")).toBe(true);
    const layout = res.body.results.find((r: any) => r.validationId === "layout-not-broken");
    expect(layout.verdict).toBe("pass");

    // The WebKit render is a capture like Chromium's, captioned by its engine.
    expect(overflow.captures).toEqual([
      { viewport: "mobile-sm", engine: "chromium", screenshotUrl: expect.any(String) },
      { viewport: "mobile-sm", engine: "webkit", screenshotUrl: expect.any(String) },
    ]);
    const shot = await fetch(overflow.captures[1].screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(shot.status).toBe(200);
    const jpeg = new Uint8Array(await shot.arrayBuffer());
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);

    const accepted = eventsOf(server).find((e) => e.type === "JobAccepted" && e.data.jobId === res.body.jobId)!;
    expect((accepted.data as any).validations.map((v: any) => v.engines)).toEqual([
      ["chromium", "webkit"],
      ["chromium", "webkit"],
    ]);
  });

  test("engines on a check that takes none is ENGINE_SELECTION_UNSUPPORTED; an unknown engine INVALID_ENUM_VALUE; nothing charged or created", async () => {
    const { apiKey } = await server.signup();
    const events = eventCount(server);
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob("<title>x</title>", [{ id: "page-title", engines: ["webkit"] }]),
    });
    expectError(res, 400, "ENGINE_SELECTION_UNSUPPORTED");
    expect(res.body.details).toMatchObject({ validationId: "page-title", refusedEngines: ["webkit"] });
    const unknown = await server.api("POST", "/api/jobs/estimate", {
      key: apiKey,
      body: htmlJob("<title>x</title>", [{ id: "layout-not-broken", engines: ["trident"] }]),
    });
    expectError(unknown, 400, "INVALID_ENUM_VALUE");
    expect(eventCount(server)).toBe(events);
    expect(await balance(server, apiKey)).toBe(1000);
  });

  test("every request of the WebKit render is decided by the guard: nothing reaches loopback, private or metadata addresses", async () => {
    const { apiKey } = await server.signup();
    hits.length = 0;
    tcpConnections = 0;
    const loop = `127.0.0.1:${target.port}`;
    const page = `<!doctype html><html><head><title>side doors</title>
      <link rel="stylesheet" href="https://127.0.0.1:${tcpPort}/tls.css"></head><body>
      <img src="http://10.0.0.1/private.gif" width=20 height=20>
      <img src="http://169.254.169.254/latest/meta-data/" width=20 height=20>
      <img src="http://${loop}/loopback.gif" width=20 height=20>
      <img src="http://localhost:${target.port}/loopback-name.gif" width=20 height=20>
      <img src="http://[::1]:${target.port}/loopback-v6.gif" width=20 height=20>
      <img src="https://10.0.0.2/private-tls.gif" width=20 height=20>
      <iframe src="http://${loop}/frame"></iframe>
      <script>
        new WebSocket("ws://127.0.0.1:${tcpPort}/ws"); new WebSocket("wss://127.0.0.1:${tcpPort}/wss");
        try { const x = new XMLHttpRequest(); x.open("POST", "http://${loop}/post", false); x.send("a=b"); } catch {}
        fetch("http://169.254.169.254/latest/api/token", { method: "PUT" }).catch(() => {});
      </script></body></html>`;
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(page, [{ id: "layout-not-broken", engines: ["webkit"] }]),
    });
    expect(res.status).toBe(200);
    const [row] = res.body.results;
    // The images were asked for and refused: WebKit shows them broken.
    expect(row.verdict).toBe("fail");
    const broken = row.findings.filter((f: any) => f.message === "visible image did not load").map((f: any) => f.url);
    expect(broken).toEqual(
      expect.arrayContaining([
        "http://10.0.0.1/private.gif",
        "http://169.254.169.254/latest/meta-data/",
        `http://${loop}/loopback.gif`,
        `http://localhost:${target.port}/loopback-name.gif`,
        "https://10.0.0.2/private-tls.gif",
      ]),
    );
    expect(row.findings.every((f: any) => f.engine === "webkit")).toBe(true);
    expect(hits).toEqual([]);
    expect(tcpConnections).toBe(0);
  });
});

describe("through MCP", () => {
  test("run_job and estimate_job take engines as POST /api/jobs does: the WebKit verdict, its price", async () => {
    const { apiKey } = await server.signup();
    const client = new Client({ name: "assay-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    try {
      const body = htmlJob(BREAKS_IN_SAFARI, [{ id: "no-horizontal-overflow", engines: ["webkit"] }]);
      const call = async (name: string) =>
        ((await client.callTool({ name, arguments: body }, undefined, { timeout: 120_000 })) as CallToolResult)
          .structuredContent as any;
      expect((await call("estimate_job")).totalCredits).toBe(4);
      const job = await call("run_job");
      expect(job.credits).toEqual({ charged: 4, refunded: 0, net: 4 });
      const [row] = job.results;
      expect(row.verdict).toBe("fail");
      expect(row.reason).toStartWith("In WebKit:");
      expect(row.captures).toEqual([{ viewport: "mobile-sm", engine: "webkit", screenshotUrl: expect.any(String) }]);
    } finally {
      await client.close();
    }
  });
});

describe("with loopback opened (ASSAY_ALLOW_PRIVATE_TARGETS=1)", () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  });
  afterAll(() => open?.stop());

  test("control: WebKit's requests do reach the loopback listener; a redirect to a private or metadata address is refused at its hop", async () => {
    const { apiKey } = await open.signup();
    hits.length = 0;
    const loop = `127.0.0.1:${target.port}`;
    const page = `<!doctype html><html><head><title>control</title></head><body>
      <img src="http://${loop}/loopback.gif" width=20 height=20>
      <img src="http://${loop}/to-metadata" width=20 height=20>
      <img src="http://${loop}/to-private" width=20 height=20>
      <script>const x = new XMLHttpRequest(); x.open("POST", "http://${loop}/post", false); x.send("a=b");</script>
      </body></html>`;
    const res = await open.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(page, [{ id: "layout-not-broken", engines: ["webkit"] }]),
    });
    expect(res.status).toBe(200);
    // Chromium captures the page too (its requests are the guard's as ever); these are WebKit's own.
    expect(hits.filter((h) => h.endsWith(" webkit")).sort()).toEqual([
      "GET /loopback.gif webkit",
      "GET /to-metadata webkit",
      "GET /to-private webkit",
      "POST /post webkit",
    ]);
    const broken = res.body.results[0].findings.map((f: any) => f.url);
    expect(broken).toEqual(expect.arrayContaining([`http://${loop}/to-metadata`, `http://${loop}/to-private`]));
  });
});

describe("gating and availability", () => {
  test("a plan without extra-credit renders refuses an engine beyond Chromium: PLAN_EXCLUDES_REQUESTED_ENGINES, nothing charged", async () => {
    const dir = tempDataDir();
    const file = join(dir, "plans.json");
    const catalog = structuredClone(plans);
    catalog.plans[0]!.features.extra_credit_clients = false;
    writeFileSync(file, JSON.stringify(catalog));
    const gated = await startServer({ ASSAY_PLANS_FILE: file });
    try {
      const { apiKey } = await gated.signup();
      const events = eventCount(gated);
      for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
        const res = await gated.api("POST", path, { key: apiKey, body: htmlJob("<title>x</title>", IN_BOTH) });
        expectError(res, 403, "PLAN_EXCLUDES_REQUESTED_ENGINES");
        expect(res.body.details).toMatchObject({
          validationId: "no-horizontal-overflow",
          refusedEngines: ["webkit"],
          missingFeatures: ["extra_credit_clients"],
        });
      }
      // Chromium alone is not an extra engine: the same checks run.
      const chromium = await gated.api("POST", "/api/jobs/estimate", {
        key: apiKey,
        body: htmlJob("<title>x</title>", [{ id: "layout-not-broken", engines: ["chromium"] }]),
      });
      expect(chromium.status).toBe(200);
      expect(eventCount(gated)).toBe(events);
      expect(await balance(gated, apiKey)).toBe(1000);
    } finally {
      await gated.stop();
    }
  });

  test("WebKit not offered here (ASSAY_WEBKIT_OFF) is ENGINE_UNAVAILABLE at the run, nothing charged; the estimate still prices it", async () => {
    const off = await startServer({ ASSAY_WEBKIT_OFF: "1" });
    try {
      const { apiKey } = await off.signup();
      const events = eventCount(off);
      const body = htmlJob("<title>x</title>", IN_BOTH);
      const res = await off.api("POST", "/api/jobs", { key: apiKey, body });
      expectError(res, 503, "ENGINE_UNAVAILABLE");
      expect(res.body.details).toEqual({ engine: "webkit", missing: ["ASSAY_WEBKIT_OFF is set"] });
      expect(eventCount(off)).toBe(events);
      expect(await balance(off, apiKey)).toBe(1000);
      expect((await off.api("GET", "/api/jobs", { key: apiKey })).body.jobs).toEqual([]);
      expect((await off.api("POST", "/api/jobs/estimate", { key: apiKey, body })).body.totalCredits).toBe(8);
    } finally {
      await off.stop();
    }
  });
});

describe("the dashboard's job page", () => {
  test("captions each screenshot of a check judged in two engines by size and engine, and each finding by its engine's", async () => {
    const { server: withRelay, relay, stop } = await startServerWithRelay();
    try {
      const email = uniqueEmail("engines");
      const { apiKey } = await withRelay.signup(email);
      const who = await signIn(withRelay, relay, email);
      const res = await withRelay.api("POST", "/api/jobs", {
        key: apiKey,
        body: htmlJob(BREAKS_IN_SAFARI, [{ id: "no-horizontal-overflow", engines: ["chromium", "webkit"] }]),
      });
      expect(res.status).toBe(200);
      const html = (await page(withRelay, `/dashboard/jobs/${res.body.jobId}`, who.cookie)).text;
      expect(html).toContain("<span>mobile-sm, Chromium</span>");
      expect(html).toContain("<span>mobile-sm, WebKit</span>");
      expect(html).toContain("At mobile-sm, WebKit");
    } finally {
      await stop();
    }
  });
});
