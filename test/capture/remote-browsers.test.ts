import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import {
  eventCount,
  expectError,
  htmlJob,
  runCli,
  spawnBrowserWorker,
  spawnServer,
  startServer,
  tempDataDir,
  type BrowserWorkerProcess,
  type TestServer,
} from "../support/harness";

/**
 * Browsers as remote workers: one node (ASSAY_BROWSER_ENDPOINTS) rendering in two `assay browser-worker` processes,
 * real Chromium in each. A page whose document the test holds keeps a job rendering on a known worker for as long
 * as the test needs, so a worker is killed while a job is mid-render, not before or after it.
 */

/** A 1×1 PNG, for an image the page may load. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** A held document: `asked` once a node requested it, answered once the test calls `release`. */
interface Hold {
  asked: PromiseWithResolvers<void>;
  released: PromiseWithResolvers<void>;
}
const holds = new Map<string, Hold>();
const hold = (name: string): Hold => {
  if (!holds.has(name)) holds.set(name, { asked: Promise.withResolvers(), released: Promise.withResolvers() });
  return holds.get(name)!;
};
const siteHits: string[] = [];

let site: ReturnType<typeof Bun.serve>;
let workers: BrowserWorkerProcess[];
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      siteHits.push(path);
      if (path === "/pixel.png") return new Response(PIXEL, { headers: { "content-type": "image/png" } });
      const held = /^\/held\/(.+)$/.exec(path);
      if (held) {
        hold(held[1]!).asked.resolve();
        await hold(held[1]!).released.promise;
      }
      return new Response("<!doctype html><html lang=en><title>Held</title><h1>Held</h1></html>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  // Fixed paths: a worker started again on its port has the endpoint the node already names.
  workers = await Promise.all(
    ["/worker-a", "/worker-b"].map((path) => spawnBrowserWorker(["--port", "0", "--ws-path", path])),
  );
  server = await startServer({
    ASSAY_BROWSER_ENDPOINTS: workers.map((w) => w.endpoint).join(","),
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
  });
  apiKey = (await server.signup()).apiKey;
});
/** Data directories of the servers spawned here, removed at the end. */
const spawnedDirs: string[] = [];
const spawnedDir = () => {
  spawnedDirs.push(tempDataDir());
  return spawnedDirs[spawnedDirs.length - 1]!;
};

afterAll(async () => {
  for (const dir of spawnedDirs) rmSync(dir, { recursive: true, force: true });
  for (const h of holds.values()) h.released.resolve();
  await server?.stop();
  await Promise.all((workers ?? []).map((w) => w.kill("SIGTERM")));
  site?.stop(true);
});

const pool = () => server.assay.pool.describe();
const balance = async () => (await server.api("GET", "/api/credits", { key: apiKey })).body.balance as number;
const heldJob = (name: string) =>
  server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "url", url: `http://127.0.0.1:${site.port}/held/${name}`, validations: ["page-title"] },
  });
const quickJob = () =>
  server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob("<!doctype html><html lang=en><title>Quick</title><h1>Quick</h1></html>", ["page-title"]),
  });
/** The index (in ASSAY_BROWSER_ENDPOINTS) of the one worker rendering now. */
const busyWorker = () => {
  const busy = pool().browsers.flatMap((b, i) => (b.active > 0 ? [i] : []));
  expect(busy).toHaveLength(1);
  return busy[0]!;
};
/** Waits until the pool sees the worker at `index` up (or down); the node notices a worker's end by its connection closing. */
async function untilConnected(index: number, connected: boolean) {
  while (pool().browsers[index]!.connected !== connected) {
    // What a job's admission does: a worker whose back-off has passed is connected again.
    if (connected) await server.assay.pool.warm().catch(() => {});
    await Bun.sleep(100);
  }
}

const expectPassed = (res: Awaited<ReturnType<typeof quickJob>>) => {
  expect(res.status).toBe(200);
  expect(res.body.status).toBe("completed");
  expect(res.body.results.map((r: any) => r.verdict)).toEqual(["pass"]);
};

let killed: { index: number; port: number; path: string };

describe("one node, two browser workers", () => {
  test("the pool names both workers (without their paths); with one rendering a held page, the next job renders in the other", async () => {
    expect(pool()).toEqual({
      mode: "remote",
      browsers: workers.map((w) => ({
        endpoint: `ws://127.0.0.1:${w.port}`,
        connected: false,
        active: 0,
        capacity: 1,
      })),
    });
    const first = heldJob("spread");
    await hold("spread").asked.promise;
    const busy = busyWorker();
    // Each worker takes one page at a time (the default): this job can only have gone to the other worker.
    expectPassed(await quickJob());
    expect(pool().browsers.map((b) => b.connected)).toEqual([true, true]);
    expect(pool().browsers[busy]!.active).toBe(1);
    hold("spread").released.resolve();
    expectPassed(await first);
  });

  test("the guard still decides a worker's requests: link-local and private addresses are refused, an allowed one is fetched by the node", async () => {
    siteHits.length = 0;
    const html = `<!doctype html><html lang=en><title>Images</title><h1>Images</h1>
<img src="http://169.254.169.254/latest/meta-data/logo.png" alt="metadata" width="1" height="1">
<img src="http://10.20.30.40/logo.png" alt="private" width="1" height="1">
<img src="http://127.0.0.1:${site.port}/pixel.png" alt="allowed" width="1" height="1"></html>`;
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, ["broken-images"]) });
    expect(res.status).toBe(200);
    const [row] = res.body.results;
    expect(row.verdict).toBe("fail");
    const messages: string[] = row.findings.map((f: any) => f.message);
    for (const host of ["169.254.169.254", "10.20.30.40"]) {
      expect(messages.filter((m) => m.includes(host) && m.includes("refused by the network guard"))).toHaveLength(1);
    }
    expect(messages.some((m) => m.includes(`127.0.0.1:${site.port}`))).toBe(false);
    // The worker's Chromium has no network of its own: the image reached the site through the node's guard.
    expect(siteHits).toEqual(["/pixel.png"]);
  });

  test("a worker killed mid-job: the job settles as refunded error rows, and the next jobs pass on the other worker", async () => {
    const opening = await balance();
    const job = heldJob("killed");
    await hold("killed").asked.promise;
    const index = busyWorker();
    killed = { index, port: workers[index]!.port, path: new URL(workers[index]!.endpoint).pathname };
    await workers[index]!.kill("SIGKILL");

    const res = await job;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("interrupted");
    expect(res.body.interruption.message).toContain("The browser rendering the page went away");
    expect(res.body.results.map((r: any) => r.verdict)).toEqual(["error"]);
    expect(res.body.credits.charged).toBeGreaterThan(0);
    expect(res.body.credits.refunded).toBe(res.body.credits.charged);
    expect(await balance()).toBe(opening);
    const ledger = (await server.api("GET", "/api/credits", { key: apiKey })).body.ledger.filter(
      (e: any) => e.jobId === res.body.jobId,
    );
    expect(ledger.map((e: any) => [e.type, Math.abs(e.amount)])).toEqual([
      ["CreditsRefunded", res.body.credits.charged],
      ["CreditsCharged", res.body.credits.charged],
    ]);

    hold("killed").released.resolve();
    await untilConnected(index, false);
    // The dead worker's turn was given back; it gets no new one while it is down.
    while (pool().browsers[index]!.active > 0) await Bun.sleep(20);
    for (let n = 0; n < 2; n++) expectPassed(await quickJob());
    expect(pool().browsers.map((b) => b.connected)).toEqual(index === 0 ? [false, true] : [true, false]);
  });

  test("the dead worker, started again on its port, is connected again and renders jobs beside the other", async () => {
    const again = await spawnBrowserWorker(["--port", String(killed.port), "--ws-path", killed.path]);
    expect(again.endpoint).toBe(workers[killed.index]!.endpoint);
    workers[killed.index] = again;
    await untilConnected(killed.index, true);

    // Two jobs at once, one page per worker: one of them renders in the worker that came back.
    const first = heldJob("after-restart");
    await hold("after-restart").asked.promise;
    const busy = busyWorker();
    const second = quickJob();
    while (pool().browsers[1 - busy]!.active === 0) await Bun.sleep(10);
    expect(pool().browsers.map((b) => [b.connected, b.active])).toEqual([
      [true, 1],
      [true, 1],
    ]);
    expectPassed(await second);
    hold("after-restart").released.resolve();
    expectPassed(await first);
  });

  test("with every worker down a job is refused with SERVICE_UNAVAILABLE before its charge; a worker stopped by SIGTERM exits 0", async () => {
    const [stopped, killedToo] = workers as [BrowserWorkerProcess, BrowserWorkerProcess];
    await stopped.kill("SIGTERM");
    expect(await stopped.exited).toBe(0);
    await killedToo.kill("SIGKILL");
    await untilConnected(0, false);
    await untilConnected(1, false);

    const opening = await balance();
    const events = eventCount(server);
    const refused = await quickJob();
    expectError(refused, 503, "SERVICE_UNAVAILABLE");
    expect(refused.body.retryable).toBe(true);
    expect(refused.body.details).toEqual({ dependency: "chromium" });
    expect(await balance()).toBe(opening);
    expect(eventCount(server)).toBe(events);
  });
});

describe("configuration and usage", () => {
  test("a malformed ASSAY_BROWSER_ENDPOINTS stops the start, naming the variable and the entry", async () => {
    for (const [value, said] of [
      [
        "http://10.0.0.5:3000/w",
        /ASSAY_BROWSER_ENDPOINTS: "http:\/\/10\.0\.0\.5:3000\/w" is not a ws:\/\/ or wss:\/\/ URL/,
      ],
      ["ws://10.0.0.5:3000/w, not a url", /ASSAY_BROWSER_ENDPOINTS: "not a url" is not a ws:\/\/ or wss:\/\/ URL/],
      ["ws://10.0.0.5:3000/w,ws://10.0.0.5:3000/w", /ASSAY_BROWSER_ENDPOINTS names "ws:\/\/10\.0\.0\.5:3000\/w" twice/],
    ] as const) {
      expect(() => loadConfig({ ASSAY_BROWSER_ENDPOINTS: value })).toThrow(said);
    }
    // As an operator meets it: `assay serve` does not start, and says why.
    const refused = await spawnServer(spawnedDir(), { ASSAY_BROWSER_ENDPOINTS: "tcp://worker:3000" }).catch(
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain(
      'ASSAY_BROWSER_ENDPOINTS: "tcp://worker:3000" is not a ws:// or wss:// URL',
    );
  });

  test("with endpoints: one browser per worker, one page each unless ASSAY_BROWSER_PAGES says more, and no local Chromium needed", async () => {
    const remote = loadConfig({
      ASSAY_BROWSER_ENDPOINTS: " ws://10.0.0.5:3000/a , wss://10.0.0.6:3000/b ",
      ASSAY_BROWSER_POOL_SIZE: "5",
    });
    expect([remote.browserEndpoints, remote.browserPoolSize, remote.browserPagesPerBrowser]).toEqual([
      ["ws://10.0.0.5:3000/a", "wss://10.0.0.6:3000/b"],
      2,
      1,
    ]);
    expect(
      loadConfig({ ASSAY_BROWSER_ENDPOINTS: "ws://10.0.0.5:3000/a", ASSAY_BROWSER_PAGES: "4" }).browserPagesPerBrowser,
    ).toBe(4);
    expect(loadConfig({}).browserEndpoints).toEqual([]);

    // No Chromium on PATH and no CHROMIUM_PATH: a node with workers starts (its worker is down: jobs wait for it), one without does not.
    const noChromium = { PATH: "/nonexistent", CHROMIUM_PATH: "" };
    const remoteOnly = await spawnServer(spawnedDir(), {
      ...noChromium,
      ASSAY_BROWSER_ENDPOINTS: "ws://127.0.0.1:9/worker",
    });
    try {
      expect((await remoteOnly.api("GET", "/healthz")).status).toBe(200);
      expect(remoteOnly.log()).toContain("Browser worker ws://127.0.0.1:9 is unavailable");
    } finally {
      await remoteOnly.kill("SIGTERM");
    }
    const local = await spawnServer(spawnedDir(), noChromium).catch((e: Error) => e);
    expect((local as Error).message).toContain("No Chromium found");
  });

  test("assay browser-worker refuses bad usage with exit 2, and a port already taken with exit 1", async () => {
    const badPort = await runCli(["browser-worker", "--port", "nope"], {});
    expect([badPort.code, badPort.stderr.trim()]).toEqual([2, "--port nope is not a port (0 to 65535)"]);
    const taken = await runCli(["browser-worker", "--port", String(site.port)], {});
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("The browser worker could not start");
    expect(taken.stdout).toBe("");
  });
});
