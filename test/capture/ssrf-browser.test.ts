import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { BrowserPool } from "../../src/capture/browser-pool";
import { CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { NetworkGuard, type Resolver } from "../../src/capture/network-guard";
import { WebCaptureEngine } from "../../src/capture/web-capture";
import { startServer, type TestServer } from "../support/harness";

/**
 * The browser's requests go through the network guard, and Chromium has no network of its own.
 * Listeners on loopback count everything that reaches them: HTTP requests and WebSocket upgrades, raw TCP
 * connections (preconnect), UDP datagrams (WebRTC/STUN).
 */

interface Listener {
  port: number | undefined;
  stop(closeActive?: boolean): unknown;
}
let target: Listener;
let tcp: Listener;
let udp: { port: number; close(): void };
const hits: string[] = [];
let tcpConnections = 0;
let datagrams = 0;
let onDatagram: (() => void) | null = null;

beforeAll(async () => {
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req, server) {
      hits.push(`${req.method} ${new URL(req.url).pathname}`);
      if (req.headers.get("upgrade") === "websocket" && server.upgrade(req)) return;
      return new Response("reached", { headers: { "access-control-allow-origin": "*", "content-type": "text/plain" } });
    },
    websocket: { message() {} },
  });
  tcp = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void tcpConnections++, data() {} } });
  udp = await Bun.udpSocket({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data() {
        datagrams++;
        onDatagram?.();
      },
    },
  });
});
afterAll(() => {
  target.stop(true);
  tcp.stop(true);
  udp.close();
});

const reset = () => {
  hits.length = 0;
  tcpConnections = 0;
  datagrams = 0;
};

/** A page that tries every way out to the listeners; window.signals fills in as each attempt settles. */
function sideDoorPage(): string {
  const h = `127.0.0.1:${target.port}`;
  return `<!doctype html><html lang="en"><head><title>Side doors</title>
<script>window.signals = {};</script>
<link rel="preconnect" href="http://127.0.0.1:${tcp.port}">
<link rel="dns-prefetch" href="http://127.0.0.1:${tcp.port}">
<link rel="prefetch" href="http://${h}/prefetch">
<link rel="stylesheet" href="http://${h}/style.css">
<script type="speculationrules">{"prefetch":[{"source":"list","urls":["http://${h}/speculative-prefetch"]}],"prerender":[{"source":"list","urls":["http://${h}/speculative-prerender"]}]}</script>
</head><body><h1>Side doors</h1>
<img src="http://${h}/x.png" onload="signals.img = 'load'" onerror="signals.img = 'error'">
<iframe src="http://${h}/frame" onload="signals.frame = 'load'"></iframe>
<iframe src="http://169.254.169.254/latest/meta-data/"></iframe>
<a id="ping" ping="http://${h}/ping" href="#clicked">a</a>
<form id="form" method="post" action="http://${h}/form" target="sink"></form><iframe name="sink"></iframe>
<script>
fetch("http://${h}/").then(() => (signals.fetch = "ok"), () => (signals.fetch = "error"));
const ws = new WebSocket("ws://${h}/ws");
ws.onopen = () => (signals.ws = "open");
ws.onclose = () => (signals.ws ??= "closed");
navigator.sendBeacon("http://${h}/beacon", "x");
new EventSource("http://${h}/events");
new Worker(URL.createObjectURL(new Blob(['fetch("http://${h}/worker-fetch").catch(() => {}); new WebSocket("ws://${h}/worker-ws");'], { type: "text/javascript" })));
const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${udp.port}" }] });
pc.onicegatheringstatechange = () => pc.iceGatheringState === "complete" && (signals.ice = "complete");
pc.createDataChannel("x");
pc.createOffer().then((o) => pc.setLocalDescription(o));
document.getElementById("ping").click();
document.getElementById("form").submit();
window.open("http://${h}/popup");
</script></body></html>`;
}

describe("through the HTTP API, with the default guard", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "" });
  });
  afterAll(() => server.stop());

  test("a static_html page that reaches for loopback and the metadata address gets nothing out", async () => {
    const { apiKey } = await server.signup();
    reset();
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "static_html", html: sideDoorPage(), baseUrl: "https://example.com/", validations: ["page-title"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("completed");
    expect(res.body.results[0].verdict).toBe("pass");
    // The job is over and its browser context closed: nothing it tried can still arrive.
    expect(hits).toEqual([]);
    expect(tcpConnections).toBe(0);
    expect(datagrams).toBe(0);
  });
});

describe("the capture engine routes every request through the guard", () => {
  // Loopback is opened (as ASSAY_ALLOW_PRIVATE_TARGETS=1 does) so a local gate server can hold the page's
  // load event until the page has seen every refusal: the recorded list is then complete, with no timing.
  // gate.test and echo.test exist only in this resolver: Chromium resolves nothing, so a page reaching them
  // proves the request went through guardedFetch (or the socket bridge) to the address the guard checked.
  const answers: Record<string, string> = {
    "internal.example": "10.20.30.40",
    "echo.test": "127.0.0.1",
    "gate.test": "127.0.0.1",
  };
  const resolver: Resolver = async (name) => {
    if (!answers[name]) throw new Error(`ENOTFOUND ${name}`);
    return [{ address: answers[name]!, family: 4 }];
  };
  let pool: BrowserPool;
  let engine: WebCaptureEngine;
  let gate: Listener;
  let releaseGate: (() => void) | null = null;
  const gateSeen: string[] = [];
  const echoHosts: Array<string | null> = [];

  beforeAll(() => {
    pool = new BrowserPool({ executablePath: findChromium(process.env.CHROMIUM_PATH)!, browsers: 1 });
    engine = new WebCaptureEngine(pool, new NetworkGuard(true, resolver));
    gate = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req, server) {
        const url = new URL(req.url);
        gateSeen.push(url.pathname + url.search);
        if (url.pathname === "/echo") {
          echoHosts.push(req.headers.get("host"));
          return server.upgrade(req) ? undefined : new Response("no", { status: 400 });
        }
        if (url.pathname === "/gate.png") {
          return new Promise<Response>((resolve) => {
            releaseGate = () => resolve(new Response(PNG, { headers: { "content-type": "image/png" } }));
          });
        }
        if (url.pathname === "/release") {
          releaseGate?.();
          return new Response("released", { headers: { "access-control-allow-origin": "*" } });
        }
        if (url.pathname === "/to-metadata.png")
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/x.png" } });
        if (url.pathname === "/start")
          return new Response(null, { status: 301, headers: { location: "/landing/index.html" } });
        if (url.pathname === "/landing/index.html") {
          return new Response('<html><head><title>Landing</title></head><body><img src="pic.png"></body></html>', {
            headers: { "content-type": "text/html" },
          });
        }
        if (url.pathname === "/landing/pic.png") return new Response(PNG, { headers: { "content-type": "image/png" } });
        return new Response("not found", { status: 404 });
      },
      websocket: { message: (ws, m) => void ws.send(`echo:${m}`) },
    });
  });
  afterAll(async () => {
    gate.stop(true);
    await pool.close();
  });

  test("refused subresources, frames, redirect hops and WebSockets are aborted and recorded", async () => {
    const g = `http://gate.test:${gate.port}`;
    const html = `<html><head><title>Guarded</title></head><body>
<img src="${g}/gate.png">
<img src="http://169.254.169.254/latest/meta-data/x.png">
<img src="${g}/to-metadata.png">
<iframe src="http://[fd00::1]/"></iframe>
<script>
const refusedSocket = new Promise((resolve) => {
  const ws = new WebSocket("ws://internal.example/live");
  ws.onclose = (e) => resolve(e.code);
});
const echoed = new Promise((resolve, reject) => {
  const ws = new WebSocket("ws://echo.test:${gate.port}/echo");
  ws.onopen = () => ws.send("hello");
  ws.onmessage = (e) => resolve(e.data);
  ws.onclose = () => reject(new Error("closed"));
});
const refusedFetch = fetch("http://10.0.0.1/api").then(() => "ok", () => "error");
Promise.allSettled([refusedSocket, echoed, refusedFetch]).then((r) =>
  fetch("${g}/release?" + new URLSearchParams({ results: JSON.stringify(r.map((x) => x.value ?? String(x.reason))) })));
</script></body></html>`;
    // An http page, so plain-http subresources are not mixed content (Chromium would upgrade or block them).
    const outcome = await engine.capture(
      { type: "static_html", html, baseUrl: "http://example.com/" },
      { viewports: ["desktop-md"], needs: new Set(["dom"]) },
    );
    if (!outcome.ok) throw new Error(outcome.interruption);
    expect(outcome.artifacts.dom!["desktop-md"]!.title).toBe("Guarded");
    const blocked = outcome.artifacts.blockedRequests!;
    expect(blocked).toContainEqual(
      expect.objectContaining({ url: "http://169.254.169.254/latest/meta-data/x.png", reason: "link-local" }),
    );
    expect(blocked).toContainEqual({
      url: "http://169.254.169.254/x.png",
      reason: "link-local",
      detail: expect.any(String),
      requestedUrl: `${g}/to-metadata.png`,
    });
    expect(blocked).toContainEqual(expect.objectContaining({ url: "http://[fd00::1]/", reason: "unique-local" }));
    expect(blocked).toContainEqual(expect.objectContaining({ url: "http://10.0.0.1/api", reason: "private" }));
    expect(blocked).toContainEqual(expect.objectContaining({ url: "ws://internal.example/live", reason: "private" }));
    // The page saw the refusals (socket closed with 1008, fetch failed) and the allowed socket's echo:
    // the bridge reached echo.test, a name only the guard's resolver knows (Chromium resolves nothing), at
    // the address the guard checked.
    const release = gateSeen.find((p) => p.startsWith("/release"))!;
    expect(JSON.parse(new URL(release, "http://x").searchParams.get("results")!)).toEqual([
      1008,
      "echo:hello",
      "error",
    ]);
    expect(echoHosts).toEqual([`echo.test:${gate.port}`]);
  });

  test("a url job's redirects are followed through the guard before the browser navigates to the final URL", async () => {
    gateSeen.length = 0;
    const outcome = await engine.capture(
      { type: "url", url: `http://gate.test:${gate.port}/start` },
      { viewports: ["desktop-md"], needs: new Set(["dom"]) },
    );
    if (!outcome.ok) throw new Error(outcome.interruption);
    expect(outcome.artifacts.finalUrl).toBe(`http://gate.test:${gate.port}/landing/index.html`);
    expect(outcome.artifacts.dom!["desktop-md"]!.title).toBe("Landing");
    // The relative image resolved against the final URL, as it does for a user.
    expect(gateSeen).toEqual(["/start", "/landing/index.html", "/landing/pic.png"]);
    expect(outcome.artifacts.blockedRequests).toEqual([]);
  });

  test("a url job whose redirect leads to a private address is an interruption, and the hop is never requested", async () => {
    const outcome = await engine.capture(
      { type: "url", url: `http://127.0.0.1:${gate.port}/to-metadata.png` },
      { viewports: ["desktop-md"], needs: new Set(["dom"]) },
    );
    expect(outcome).toEqual({
      ok: false,
      interruption: expect.stringContaining("network guard refused http://169.254.169.254/x.png"),
    });
  });
});

describe("Chromium has no network of its own (CHROMIUM_ARGS)", () => {
  // Without routing at all, the launch flags alone must keep the page in: this is the floor under the
  // guard for anything Playwright does not route (preconnect, speculation rules, workers' sockets, WebRTC).
  // The page is served from a loopback origin and granted local-network access, so Chromium's own
  // Local Network Access checks do not stop it first: the control run shows the same page does get out.
  async function openSideDoors(browser: Browser, settled: string[]): Promise<Record<string, string>> {
    const context = await browser.newContext({ serviceWorkers: "block" });
    try {
      await context.grantPermissions(["local-network-access"]);
      const page = await context.newPage();
      const documentUrl = `http://127.0.0.1:${target.port}/page`;
      await page.route(documentUrl, (route) => route.fulfill({ contentType: "text/html", body: sideDoorPage() }));
      page.on("popup", (p) => void p.close().catch(() => {}));
      await page.goto(documentUrl);
      // Polled, not on animation frames: the pop-up leaves this page hidden, where frames do not run.
      await page.waitForFunction((keys) => keys.every((k) => (window as any).signals[k]), settled, { polling: 50 });
      return await page.evaluate(() => (window as any).signals);
    } finally {
      await context.close();
    }
  }

  test("control: the same page in a Chromium without the lock-down reaches the listeners", async () => {
    const browser = await chromium.launch({
      executablePath: findChromium(process.env.CHROMIUM_PATH)!,
      headless: true,
      args: CHROMIUM_ARGS.filter((a) => !/proxy|resolver|webrtc|dns-prefetch/.test(a)),
    });
    try {
      reset();
      const firstDatagram = new Promise<void>((resolve) => (onDatagram = resolve));
      const signals = await openSideDoors(browser, ["img", "frame", "fetch", "ws"]);
      await firstDatagram;
      expect(signals).toMatchObject({ fetch: "ok", ws: "open" });
      expect(hits).toEqual(expect.arrayContaining(["GET /x.png", "GET /frame", "GET /", "GET /ws"]));
      expect(datagrams).toBeGreaterThan(0);
    } finally {
      onDatagram = null;
      await browser.close();
    }
  });

  test("with CHROMIUM_ARGS nothing gets out: no request, no connection, no datagram", async () => {
    const pool = new BrowserPool({ executablePath: findChromium(process.env.CHROMIUM_PATH)!, browsers: 1 });
    try {
      reset();
      // ICE gathering completes once every STUN attempt is over (here: none may start). A datagram that does
      // get out ends the wait at once, so a leak fails on the assertions below rather than on a time-out.
      const leaked = new Promise<Record<string, string>>(
        (resolve) => (onDatagram = () => resolve({ leaked: "datagram" })),
      );
      const signals = await pool.use((browser) =>
        Promise.race([openSideDoors(browser, ["img", "frame", "fetch", "ws", "ice"]), leaked]),
      );
      expect(signals).toMatchObject({ img: "error", fetch: "error", ws: "closed", ice: "complete" });
      expect(hits).toEqual([]);
      expect(tcpConnections).toBe(0);
      expect(datagrams).toBe(0);
    } finally {
      onDatagram = null;
      await pool.close();
    }
  });
});

// A 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
