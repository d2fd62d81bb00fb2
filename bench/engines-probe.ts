// The engines probe (issue 29 §2, docs/engines.md): can WebKitGTK (WebKitWebDriver under Xvfb) and Gecko
// (Firefox ESR over WebDriver BiDi) be driven here, how long does each take to start and to screenshot one page,
// beside Chromium (playwright-core), and does each send its requests through a proxy given as a capability?
// A logging proxy on loopback serves the probe page and refuses what the network guard refuses.
// Run: bun bench/engines-probe.ts   (needs webkit2gtk-driver, xvfb, firefox-esr, chromium)
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../src/capture/chromium-launch";
import { WebKitEngine } from "../src/capture/engines/webkit";
import { NetworkGuard } from "../src/capture/network-guard";

const PAGE_HOST = "probe.example.com";
const log: string[] = [];
const children: ChildProcess[] = [];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

// A page on loopback, reached only if an engine goes around the proxy.
const direct = createServer((req, res) => {
  log.push(`DIRECT ${req.url}`);
  res.end("direct");
});
const directPort = await listen(direct);
direct.on("connection", () => log.push("DIRECT connection"));

const pageHtml = `<!doctype html><html><body style="margin:0;background:#fff">
<h1 style="color:#c00;font:bold 32px sans-serif;margin:16px">Assay engines probe</h1>
<div style="width:200px;height:100px;background:#06c"></div>
<img src="http://${PAGE_HOST}/public.png" width=1 height=1>
<img src="http://10.0.0.1/private.png" width=1 height=1>
<img src="http://169.254.169.254/latest/meta-data/" width=1 height=1>
<img src="http://127.0.0.1:${directPort}/loopback-literal.png" width=1 height=1>
<img src="http://localhost:${directPort}/loopback-name.png" width=1 height=1>
<img src="https://10.0.0.5/private-tls.png" width=1 height=1>
<img src="https://127.0.0.1:${directPort}/loopback-tls.png" width=1 height=1>
</body></html>`;

// The guarded proxy's decision: the probe host is answered by the proxy itself; everything else goes to the guard
// (no loopback) and, in this probe, is answered 403 when refused and 404 when allowed (nothing leaves the machine).
const guard = new NetworkGuard(false);
const proxy = createServer(async (req, res) => {
  const url = req.url ?? "";
  if (url.startsWith(`http://${PAGE_HOST}/`)) {
    log.push(`PROXY served ${url}`);
    res.writeHead(200, { "content-type": url.endsWith(".html") ? "text/html" : "image/gif" });
    res.end(url.endsWith(".html") ? pageHtml : Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
    return;
  }
  const verdict = await guard.check(url);
  log.push(`PROXY ${verdict.allowed ? "allowed" : `refused (${verdict.reason})`} ${req.method} ${url}`);
  res.writeHead(verdict.allowed ? 404 : 403).end();
});
proxy.on("connect", (req, socket) => {
  log.push(`PROXY refused CONNECT ${req.url}`);
  socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
});
const proxyPort = await listen(proxy);
const PAGE_URL = `http://${PAGE_HOST}/page.html`;
const manualProxy = {
  proxyType: "manual",
  httpProxy: `127.0.0.1:${proxyPort}`,
  sslProxy: `127.0.0.1:${proxyPort}`,
  noProxy: [],
};

const ms = (t: number) => Math.round(performance.now() - t);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch {}
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function start(cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess & { output: string } {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const c = Object.assign(child, { output: "" });
  child.stdout?.on("data", (d) => (c.output += d));
  child.stderr?.on("data", (d) => (c.output += d));
  children.push(child);
  return c;
}

async function webdriver(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { value: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.value)}`);
  return json.value;
}

const results: Record<string, unknown> = {};

async function probeWebKit(proxyForm: "capability" | "minibrowser-arg") {
  log.push(`--- webkit, proxy as ${proxyForm}`);
  const t0 = performance.now();
  const xvfb = start("Xvfb", [":97", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"]);
  await waitFor("Xvfb", async () => (existsSync("/tmp/.X11-unix/X97") ? true : undefined));
  const xvfbMs = ms(t0);
  const port = 4000 + Math.floor(Math.random() * 1000);
  const driver = start("WebKitWebDriver", [`--port=${port}`], { DISPLAY: ":97" });
  const base = `http://127.0.0.1:${port}`;
  await waitFor("WebKitWebDriver", async () => ((await fetch(`${base}/status`)).ok ? true : undefined));
  const driverMs = ms(t0);
  const session = (await webdriver(base, "POST", "/session", {
    capabilities: {
      alwaysMatch: {
        ...(proxyForm === "capability" ? { proxy: manualProxy } : {}),
        "webkitgtk:browserOptions": {
          binary: "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
          args: ["--automation", ...(proxyForm === "minibrowser-arg" ? [`--proxy=http://127.0.0.1:${proxyPort}`] : [])],
        },
      },
    },
  })) as { sessionId: string; capabilities: Record<string, unknown> };
  const startMs = ms(t0);
  const s = `/session/${session.sessionId}`;
  await webdriver(base, "POST", `${s}/window/rect`, { width: 800, height: 600 });
  const t1 = performance.now();
  await webdriver(base, "POST", `${s}/url`, { url: PAGE_URL });
  const png = (await webdriver(base, "GET", `${s}/screenshot`)) as string;
  const shotMs = ms(t1);
  const t2 = performance.now();
  await webdriver(base, "POST", `${s}/url`, { url: PAGE_URL });
  await webdriver(base, "GET", `${s}/screenshot`);
  const secondShotMs = ms(t2);
  writeFileSync("/tmp/engines-probe-webkit.png", Buffer.from(png, "base64"));
  const viewport = await webdriver(base, "POST", `${s}/execute/sync`, {
    script: "return [innerWidth, innerHeight, navigator.userAgent]",
    args: [],
  });
  await webdriver(base, "DELETE", s);
  results[`webkit (${proxyForm})`] = {
    browser: `${session.capabilities.browserName} ${session.capabilities.browserVersion}`,
    xvfbMs,
    driverMs,
    startMs,
    shotMs,
    secondShotMs,
    viewport,
  };
  for (const child of [driver, xvfb]) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  }
}

const firefoxProfile = mkdtempSync(join(tmpdir(), "assay-ff-"));
async function probeFirefox(run: "fresh profile" | "same profile again") {
  log.push(`--- firefox, ${run}`);
  const profile = firefoxProfile;
  writeFileSync(
    join(profile, "user.js"),
    [
      // Without it Firefox sends loopback requests around the proxy.
      'user_pref("network.proxy.allow_hijacking_localhost", true);',
      'user_pref("browser.shell.checkDefaultBrowser", false);',
      'user_pref("app.update.enabled", false);',
      // Background traffic seen at the proxy without these (remote settings, captive portal, telemetry).
      'user_pref("services.settings.server", "http://remote-settings.invalid/");',
      'user_pref("network.captive-portal-service.enabled", false);',
      'user_pref("network.connectivity-service.enabled", false);',
      'user_pref("toolkit.telemetry.enabled", false);',
      'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
      'user_pref("browser.safebrowsing.update.enabled", false);',
    ].join("\n"),
  );
  const t0 = performance.now();
  const port = 9000 + Math.floor(Math.random() * 1000);
  const ff = start("firefox-esr", [
    "--headless",
    "--no-remote",
    "--profile",
    profile,
    `--remote-debugging-port=${port}`,
  ]);
  const exited = new Promise((resolve) => ff.once("exit", resolve));
  await waitFor("Firefox's BiDi", async () => (ff.output.includes("WebDriver BiDi listening") ? true : undefined));
  const listeningMs = ms(t0);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/session`);
  await new Promise((r, j) => {
    ws.onopen = r;
    ws.onerror = j;
  });
  let id = 0;
  const pending = new Map<number, (m: { type: string; result?: unknown; error?: string; message?: string }) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    if (m.id !== undefined) pending.get(m.id)?.(m);
  };
  const send = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const n = ++id;
      pending.set(n, (m) =>
        m.type === "success"
          ? resolve(m.result as Record<string, unknown>)
          : reject(new Error(`${method}: ${m.error}: ${m.message}`)),
      );
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  const session = (await send("session.new", { capabilities: { alwaysMatch: { proxy: manualProxy } } })) as {
    capabilities: Record<string, unknown>;
  };
  const startMs = ms(t0);
  const tree = (await send("browsingContext.getTree", {})) as { contexts: Array<{ context: string }> };
  const context = tree.contexts[0]!.context;
  await send("browsingContext.setViewport", { context, viewport: { width: 800, height: 600 } });
  const t1 = performance.now();
  await send("browsingContext.navigate", { context, url: PAGE_URL, wait: "complete" });
  const shot = (await send("browsingContext.captureScreenshot", { context })) as { data: string };
  const shotMs = ms(t1);
  const t2 = performance.now();
  await send("browsingContext.navigate", { context, url: PAGE_URL, wait: "complete" });
  await send("browsingContext.captureScreenshot", { context });
  const secondShotMs = ms(t2);
  writeFileSync("/tmp/engines-probe-firefox.png", Buffer.from(shot.data, "base64"));
  await send("session.end", {}).catch(() => {});
  ws.close();
  results[`firefox (${run})`] = {
    browser: `${session.capabilities.browserName} ${session.capabilities.browserVersion}`,
    proxyEchoed: session.capabilities.proxy,
    listeningMs,
    startMs,
    shotMs,
    secondShotMs,
  };
  ff.kill();
  await exited;
}

async function probeChromium() {
  log.push("--- chromium");
  const t0 = performance.now();
  const browser = await chromium.launch({
    executablePath: findChromium(process.env.CHROMIUM_PATH),
    headless: true,
    args: [...BASE_CHROMIUM_ARGS, "--proxy-bypass-list=<-loopback>"],
    proxy: { server: `http://127.0.0.1:${proxyPort}` },
  });
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  const startMs = ms(t0);
  const t1 = performance.now();
  await page.goto(PAGE_URL, { waitUntil: "load" });
  await page.screenshot({ path: "/tmp/engines-probe-chromium.png" });
  const shotMs = ms(t1);
  const t2 = performance.now();
  await page.goto(PAGE_URL, { waitUntil: "load" });
  await page.screenshot();
  const secondShotMs = ms(t2);
  results.chromium = { browser: `chromium ${browser.version()}`, startMs, shotMs, secondShotMs };
  await browser.close();
}

/** The product's module (src/capture/engines/webkit.ts): a fresh WebKitWebDriver session per render. */
async function probeWebKitModule() {
  const t0 = performance.now();
  const engine = await WebKitEngine.start();
  const startMs = ms(t0);
  const renderMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await engine.render(pageHtml, { width: 800, height: 600 }, guard);
    renderMs.push(ms(t));
  }
  await engine.close();
  results["webkit module (session per render)"] = { startMs, renderMs };
}

for (const [name, probe] of [
  ["webkit (capability)", () => probeWebKit("capability")],
  ["webkit (minibrowser-arg)", () => probeWebKit("minibrowser-arg")],
  ["firefox (fresh profile)", () => probeFirefox("fresh profile")],
  ["firefox (same profile again)", () => probeFirefox("same profile again")],
  ["chromium", probeChromium],
  ["webkit module (session per render)", probeWebKitModule],
] as const) {
  try {
    await probe();
  } catch (e) {
    results[name] = { error: (e as Error).message };
  }
}
for (const c of children) c.kill();
console.log(JSON.stringify(results, null, 2));
console.log(log.join("\n"));
proxy.close();
direct.close();
process.exit(0);
