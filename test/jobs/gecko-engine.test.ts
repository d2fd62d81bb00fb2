import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import plans from "../../src/catalog/plans.json";
import { signIn, startServerWithRelay } from "../support/mail-relay";
import { page as dashboardPage } from "../support/pages";
import {
  eventCount,
  eventsOf,
  expectError,
  htmlJob,
  startServer,
  tempDataDir,
  type TestServer,
  uniqueEmail,
} from "../support/harness";

/**
 * Webpage checks judged in Gecko (Debian's firefox-esr over WebDriver BiDi, every request through the guarded proxy)
 * as well as Chromium and WebKit, through the API: the verdict and its findings per engine, the Gecko captures, the
 * price and the plan's gate, a crashed Firefox replaced, and the SSRF cases run against WebKit, with nothing reaching
 * a loopback listener.
 */

/** Wider than the phone only where the browser is Firefox (its user agent names it). */
const BREAKS_IN_FIREFOX = `<!doctype html><html><head><meta name="viewport" content="width=device-width">
<title>Firefox only</title></head><body style="margin:0"><h1>Hello</h1>
<script>if (/Firefox\\//.test(navigator.userAgent)) document.body.insertAdjacentHTML("beforeend",
  '<div id="firefox-banner" style="width:900px;height:40px;background:#c00">wide</div>')</script></body></html>`;

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
      hits.push(`${req.method} ${path} ${/Firefox\//.test(req.headers.get("user-agent") ?? "") ? "gecko" : "other"}`);
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

/** The Firefox main processes this test process started (their parent is us). */
function firefoxChildren(): number[] {
  const out = Bun.spawnSync(["ps", "-o", "pid=,comm=", "--ppid", String(process.pid)]).stdout.toString();
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm?.startsWith("firefox"))
    .map(([pid]) => Number(pid));
}

describe("webpage checks in Gecko", () => {
  test("a page that breaks only in Firefox passes in Chromium and WebKit and fails in Gecko, naming the engine; three engines priced and rendered", async () => {
    const { apiKey } = await server.signup();
    const body = htmlJob(BREAKS_IN_FIREFOX, [
      { id: "no-horizontal-overflow", engines: ["chromium", "webkit", "gecko"] },
      { id: "layout-not-broken", engines: ["chromium", "gecko"] },
    ]);
    const estimate = await server.api("POST", "/api/jobs/estimate", { key: apiKey, body });
    expect(estimate.status).toBe(200);
    // Each check's catalog price (2), plus each engine beyond Chromium priced as a render in an extra-credit client
    // (2) at each of its sizes: no-horizontal-overflow at mobile-sm in two, layout-not-broken at desktop-md in one.
    expect(estimate.body.lines).toEqual([
      { validationId: "no-horizontal-overflow", credits: 6 },
      { validationId: "layout-not-broken", credits: 4 },
    ]);
    const before = await balance(server, apiKey);
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body });
    expect(res.status).toBe(200);
    expect(res.body.credits).toEqual({ charged: 10, refunded: 0, net: 10 });
    expect(await balance(server, apiKey)).toBe(before - 10);

    const overflow = res.body.results.find((r: any) => r.validationId === "no-horizontal-overflow");
    expect(overflow.verdict).toBe("fail");
    expect(overflow.reason).toStartWith("In Gecko: At 375px the page is 900px wide");
    expect(overflow.reasoning).toContain("In Chromium: At mobile-sm the document is 375px wide");
    expect(overflow.reasoning).toContain("In WebKit: At mobile-sm the document is 375px wide");
    expect(overflow.findings).toContainEqual(
      expect.objectContaining({ engine: "gecko", viewport: "mobile-sm", selector: "#firefox-banner" }),
    );
    expect(overflow.findings.every((f: any) => f.engine === "gecko")).toBe(true);
    expect(overflow.captures).toEqual([
      { viewport: "mobile-sm", engine: "chromium", screenshotUrl: expect.any(String) },
      { viewport: "mobile-sm", engine: "webkit", screenshotUrl: expect.any(String) },
      { viewport: "mobile-sm", engine: "gecko", screenshotUrl: expect.any(String) },
    ]);
    const shot = await fetch(overflow.captures[2].screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(shot.status).toBe(200);
    const jpeg = new Uint8Array(await shot.arrayBuffer());
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    const layout = res.body.results.find((r: any) => r.validationId === "layout-not-broken");
    expect(layout.verdict).toBe("pass");
    expect(layout.captures.map((c: any) => `${c.viewport} ${c.engine}`)).toEqual([
      "desktop-md chromium",
      "desktop-md gecko",
    ]);

    const accepted = eventsOf(server).find((e) => e.type === "JobAccepted" && e.data.jobId === res.body.jobId)!;
    expect((accepted.data as any).validations.map((v: any) => v.engines)).toEqual([
      ["chromium", "webkit", "gecko"],
      ["chromium", "gecko"],
    ]);
  });

  test("every request of the Gecko render is decided by the guard: nothing reaches loopback, private or metadata addresses", async () => {
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
        try { new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${tcpPort}" }] }).createDataChannel("x"); } catch {}
      </script></body></html>`;
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(page, [{ id: "layout-not-broken", engines: ["gecko"] }]),
    });
    expect(res.status).toBe(200);
    const [row] = res.body.results;
    // The images were asked for and refused: Gecko shows them broken.
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
    expect(row.findings.every((f: any) => f.engine === "gecko")).toBe(true);
    expect(hits).toEqual([]);
    expect(tcpConnections).toBe(0);
  });

  test("a Firefox that died is replaced: the next job still renders in Gecko", async () => {
    const { apiKey } = await server.signup();
    const body = htmlJob(BREAKS_IN_FIREFOX, [{ id: "no-horizontal-overflow", engines: ["gecko"] }]);
    expect((await server.api("POST", "/api/jobs", { key: apiKey, body })).body.results[0].verdict).toBe("fail");
    const [pid] = firefoxChildren();
    expect(pid).toBeNumber();
    process.kill(pid!, "SIGKILL");
    while (firefoxChildren().includes(pid!)) await Bun.sleep(20);
    const again = await server.api("POST", "/api/jobs", { key: apiKey, body });
    expect(again.body.credits).toEqual({ charged: 4, refunded: 0, net: 4 });
    expect(again.body.results[0].reason).toStartWith("In Gecko:");
    expect(firefoxChildren()).not.toContain(pid);
  });
});

describe("through MCP", () => {
  test("estimate_job and run_job take gecko as POST /api/jobs does", async () => {
    const { apiKey } = await server.signup();
    const client = new Client({ name: "assay-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    try {
      const body = htmlJob(BREAKS_IN_FIREFOX, [{ id: "no-horizontal-overflow", engines: ["gecko"] }]);
      const call = async (name: string) =>
        ((await client.callTool({ name, arguments: body }, undefined, { timeout: 120_000 })) as CallToolResult)
          .structuredContent as any;
      expect((await call("estimate_job")).totalCredits).toBe(4);
      const [row] = (await call("run_job")).results;
      expect(row.reason).toStartWith("In Gecko:");
      expect(row.captures).toEqual([{ viewport: "mobile-sm", engine: "gecko", screenshotUrl: expect.any(String) }]);
    } finally {
      await client.close();
    }
  });
});

describe("with loopback opened (ASSAY_ALLOW_PRIVATE_TARGETS=1)", () => {
  test("control: Gecko's requests do reach the loopback listener; a redirect to a private or metadata address is refused at its hop", async () => {
    const open = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
    try {
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
        body: htmlJob(page, [{ id: "layout-not-broken", engines: ["gecko"] }]),
      });
      expect(res.status).toBe(200);
      expect(hits.filter((h) => h.endsWith(" gecko")).sort()).toEqual([
        "GET /loopback.gif gecko",
        "GET /to-metadata gecko",
        "GET /to-private gecko",
        "POST /post gecko",
      ]);
      const broken = res.body.results[0].findings.map((f: any) => f.url);
      expect(broken).toEqual(expect.arrayContaining([`http://${loop}/to-metadata`, `http://${loop}/to-private`]));
    } finally {
      await open.stop();
    }
  });
});

describe("gating and availability", () => {
  test("a plan without extra-credit renders refuses gecko: PLAN_EXCLUDES_REQUESTED_ENGINES, nothing charged", async () => {
    const dir = tempDataDir();
    const file = join(dir, "plans.json");
    const catalog = structuredClone(plans);
    catalog.plans[0]!.features.extra_credit_clients = false;
    writeFileSync(file, JSON.stringify(catalog));
    const gated = await startServer({ ASSAY_PLANS_FILE: file });
    try {
      const { apiKey } = await gated.signup();
      const events = eventCount(gated);
      const body = htmlJob("<title>x</title>", [{ id: "layout-not-broken", engines: ["chromium", "gecko"] }]);
      for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
        const res = await gated.api("POST", path, { key: apiKey, body });
        expectError(res, 403, "PLAN_EXCLUDES_REQUESTED_ENGINES");
        expect(res.body.details).toMatchObject({
          validationId: "layout-not-broken",
          refusedEngines: ["gecko"],
          missingFeatures: ["extra_credit_clients"],
        });
      }
      expect(eventCount(gated)).toBe(events);
      expect(await balance(gated, apiKey)).toBe(1000);
    } finally {
      await gated.stop();
    }
  });

  test("firefox-esr missing (ASSAY_FIREFOX_PATH at no binary) or Gecko off (ASSAY_GECKO_OFF) is ENGINE_UNAVAILABLE at the run, nothing charged", async () => {
    for (const [env, missing] of [
      [{ ASSAY_FIREFOX_PATH: "/nonexistent/firefox-esr" }, ["firefox-esr"]],
      [{ ASSAY_GECKO_OFF: "1" }, ["ASSAY_GECKO_OFF is set"]],
    ] as const) {
      const off = await startServer(env);
      try {
        const { apiKey } = await off.signup();
        const events = eventCount(off);
        const body = htmlJob("<title>x</title>", [{ id: "layout-not-broken", engines: ["chromium", "gecko"] }]);
        const res = await off.api("POST", "/api/jobs", { key: apiKey, body });
        expectError(res, 503, "ENGINE_UNAVAILABLE");
        expect(res.body.details).toEqual({ engine: "gecko", missing });
        expect(res.body.message).toStartWith("Gecko cannot render here");
        expect(eventCount(off)).toBe(events);
        expect(await balance(off, apiKey)).toBe(1000);
        expect((await off.api("GET", "/api/jobs", { key: apiKey })).body.jobs).toEqual([]);
        expect((await off.api("POST", "/api/jobs/estimate", { key: apiKey, body })).body.totalCredits).toBe(4);
      } finally {
        await off.stop();
      }
    }
  });
});

describe("the dashboard's job page", () => {
  test("captions a Gecko screenshot by size and engine, and the finding by its engine's", async () => {
    const { server: withRelay, relay, stop } = await startServerWithRelay();
    try {
      const email = uniqueEmail("gecko");
      const { apiKey } = await withRelay.signup(email);
      const who = await signIn(withRelay, relay, email);
      const res = await withRelay.api("POST", "/api/jobs", {
        key: apiKey,
        body: htmlJob(BREAKS_IN_FIREFOX, [{ id: "no-horizontal-overflow", engines: ["chromium", "gecko"] }]),
      });
      expect(res.status).toBe(200);
      const html = (await dashboardPage(withRelay, `/dashboard/jobs/${res.body.jobId}`, who.cookie)).text;
      expect(html).toContain("<span>mobile-sm, Chromium</span>");
      expect(html).toContain("<span>mobile-sm, Gecko</span>");
      expect(html).toContain("At mobile-sm, Gecko");
    } finally {
      await stop();
    }
  });
});
