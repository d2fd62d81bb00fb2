import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { PNG } from "pngjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { checkToolResult } from "../support/contracts";
import { eventsOf, expectError, runCli, startServer, tempDataDir, type TestServer } from "../support/harness";

/**
 * A run's visual comparison through HTTP and MCP on the real app (real Chromium): two runs of static_html pages on a
 * project, the second with a box moved on one page and another page unchanged; the changed ratio per size, the diff
 * image served like a capture (owner, another organization, no key, share link), masks by rectangle and by selector,
 * failOn visual, a run without a baseline, and replay giving the same run view.
 */
setDefaultTimeout(120_000);

const BOX = (top: number) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Box | Shop</title>
  <style>body{margin:0;background:#fff}#box{position:absolute;left:20px;top:${top}px;width:150px;height:150px;background:#1e64dc}</style>
  </head><body><h1>Box</h1><div id="box"></div></body></html>`;
const STILL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Still | Shop</title></head><body><h1>Still</h1><p>Nothing moves here.</p></body></html>`;

const BOX_KEY = "https://visual.example/box";
const STILL_KEY = "https://visual.example/still";
const pages = (boxTop: number) => [
  { type: "static_html", html: BOX(boxTop), baseUrl: BOX_KEY, validations: ["page-title"] },
  { type: "static_html", html: STILL, baseUrl: STILL_KEY, validations: ["page-title"] },
];

let server: TestServer;
let org: { apiKey: string; customerId: string };
let other: { apiKey: string; customerId: string };
const dataDir = tempDataDir();

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir, ASSAY_BROWSER_PAGES: "2", ASSAY_SIGNUP_CREDITS: "2000" });
  org = await server.signup();
  other = await server.signup();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(body: Record<string, unknown>): Promise<any> {
  const res = await server.api("POST", "/api/runs", {
    key: org.apiKey,
    body: { project: "looks", wait: true, ...body },
  });
  if (res.status !== 200) throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const pageOf = (r: any, pageKey: string) => r.pages.find((p: any) => p.pageKey === pageKey);
/** Share links carry their expiry: the same link signed at another second differs only there. */
const unsigned = (view: unknown) =>
  JSON.parse(JSON.stringify(view).replace(/expires=\d+&signature=[\w-]+/g, "expires=E&signature=S"));

let baseline: any;
let changed: any;

describe("the visual comparison", () => {
  test("a project's first run has no baseline: no visual comparison, and the view says so", async () => {
    // The first run names the mask selector too, so that its screenshots record where #box was.
    baseline = await run({ branch: "main", pages: pages(100), visual: { masks: [{ selector: "#box" }] } });
    expect(baseline).toMatchObject({ status: "completed", decision: "pass", comparison: null });
    expect(baseline.visual).toMatchObject({ status: "no-baseline", threshold: 0.1, maxChangedRatio: 0.001 });
    expect(baseline.pages.every((p: any) => p.visual === undefined)).toBe(true);
  });

  test("a box moved: the page changed at each size with a diff image; the unchanged page at 0; failOn without visual passes", async () => {
    changed = await run({ branch: "feature", pages: pages(400), visual: {} });
    expect(changed).toMatchObject({ status: "completed", decision: "pass" });
    expect(changed.visual.status).toBe("compared");
    expect(changed.comparison.baselineRunId).toBe(baseline.runId);

    const box = pageOf(changed, BOX_KEY);
    expect(box.decision).toBe("pass");
    expect(box.visual.changed).toBe(true);
    expect(box.visual.sizes.length).toBeGreaterThan(0);
    for (const size of box.visual.sizes) {
      expect(size.changedRatio).toBeGreaterThan(0.001);
      expect(size.changed).toBe(true);
      expect(size.diffUrl).toContain(`/api/captures/${box.jobId}-${size.size}-diff.png`);
      expect(size.currentUrl).toContain(`/api/captures/${box.jobId}-${size.size}.jpg`);
      expect(size.baselineUrl).toContain(`/api/captures/${pageOf(baseline, BOX_KEY).jobId}-${size.size}.jpg`);
    }
    const still = pageOf(changed, STILL_KEY);
    expect(still.visual.changed).toBe(false);
    expect(still.visual.sizes.map((s: any) => s.size)).toEqual(box.visual.sizes.map((s: any) => s.size));
    for (const size of still.visual.sizes) {
      expect(size.changedRatio).toBe(0);
      expect(size.diffUrl).toBeUndefined();
    }
    expect(changed.comparison.visualChanges).toEqual(
      box.visual.sizes.map((s: any) => ({
        pageKey: BOX_KEY,
        size: s.size,
        changedRatio: s.changedRatio,
        diffUrl: s.diffUrl,
        diffShareUrl: expect.stringContaining("/shared?expires="),
      })),
    );
    const brief = (await server.api("GET", `/api/runs?project=looks&branch=feature`, { key: org.apiKey })).body;
    expect(brief.runs[0].counts.visualChanges).toBe(box.visual.sizes.length);
  });

  test("the diff image is served like a capture: the owner, not another organization, not without a key; the share link to anyone", async () => {
    const size = pageOf(changed, BOX_KEY).visual.sizes[0];
    const owner = await fetch(size.diffUrl, { headers: { authorization: `Bearer ${org.apiKey}` } });
    expect(owner.status).toBe(200);
    expect(owner.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await owner.arrayBuffer());
    const png = PNG.sync.read(bytes);
    expect(png.width).toBeGreaterThan(0);
    // Changed pixels are red on the diff: the box's old place (left 20..170, top 100..250).
    const at = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    expect(at(90, 170)).toEqual([255, 0, 0]);

    const foreign = await fetch(size.diffUrl, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).code).toBe("STORAGE_OBJECT_NOT_FOUND");
    const anonymous = await fetch(size.diffUrl);
    expect(anonymous.status).toBe(401);
    const shared = await fetch(size.diffShareUrl);
    expect(shared.status).toBe(200);
    expect(Buffer.from(await shared.arrayBuffer()).equals(bytes)).toBe(true);
    expect(shared.headers.get("content-type")).toBe("image/png");
    const current = await fetch(size.currentUrl, { headers: { authorization: `Bearer ${org.apiKey}` } });
    expect([current.status, current.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
  });

  test("a run that asks for no visual comparison makes none; asking for one costs no credit more", async () => {
    const plain = await run({ branch: "feature", pages: pages(400) });
    expect(plain).toMatchObject({ status: "completed", decision: "pass" });
    expect(plain.visual.status).toBe("off");
    expect(plain.pages.every((p: any) => p.visual === undefined)).toBe(true);
    expect(plain.comparison.visualChanges).toEqual([]);
    expect(plain.totals.credits).toEqual(changed.totals.credits);
  });

  test("failOn visual blocks the changed page and the run", async () => {
    const strict = await run({ branch: "feature", pages: pages(400), failOn: "visual" });
    expect(strict).toMatchObject({ status: "completed", decision: "blocked" });
    expect(pageOf(strict, BOX_KEY).decision).toBe("blocked");
    expect(pageOf(strict, STILL_KEY).decision).toBe("pass");
    expect(strict.comparison.visualChanges.length).toBeGreaterThan(0);
  });

  test("masks covering the change leave the page unchanged: by rectangle on its page, by selector where the element was and is", async () => {
    const byRectangle = await run({
      branch: "feature",
      pages: pages(400),
      failOn: "visual",
      visual: { masks: [{ page: BOX_KEY, x: 0, y: 80, width: 300, height: 520 }] },
    });
    expect(byRectangle.decision).toBe("pass");
    expect(pageOf(byRectangle, BOX_KEY).visual.changed).toBe(false);
    expect(byRectangle.comparison.visualChanges).toEqual([]);

    const bySelector = await run({
      branch: "feature",
      pages: pages(400),
      failOn: "visual",
      visual: { masks: [{ selector: "#box" }] },
    });
    expect(bySelector.decision).toBe("pass");
    for (const size of pageOf(bySelector, BOX_KEY).visual.sizes) expect(size.changedRatio).toBe(0);

    // A rectangle on another page's glob leaves this one compared.
    const elsewhere = await run({
      branch: "feature",
      pages: pages(400),
      failOn: "visual",
      visual: { masks: [{ page: STILL_KEY, x: 0, y: 0, width: 2000, height: 2000 }] },
    });
    expect(elsewhere.decision).toBe("blocked");
  });

  test("a mask that names neither a selector nor a whole rectangle is refused; nothing charged or created", async () => {
    const balance = (await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance;
    const events = eventsOf(server).length;
    const res = await server.api("POST", "/api/runs", {
      key: org.apiKey,
      body: { project: "looks", pages: pages(400), visual: { masks: [{ x: 1, y: 2 }] } },
    });
    expectError(res, 400, "INVALID_REQUEST_BODY");
    expect(res.body.details.problems[0].path).toBe("visual.masks[0]");
    expect((await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(balance);
    expect(eventsOf(server).length).toBe(events);
  });

  test("MCP get_run shows the same visual comparison, and says so in its text", async () => {
    const mcp = new Client({ name: "visual-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${org.apiKey}` } },
      }),
    );
    try {
      const got = (await mcp.callTool({ name: "get_run", arguments: { runId: changed.runId } })) as any;
      checkToolResult("get_run", got);
      expect(unsigned(got.structuredContent)).toEqual(unsigned(changed));
      expect(got.content[0].text).toContain("Visual comparison:");
      expect(got.content[0].text).toMatch(/[1-9]\d* changed beyond maxChangedRatio/);
    } finally {
      await mcp.close();
    }
  });

  test("replay (assay replay) rebuilds the same run view: the diffs were recorded, not made again", async () => {
    const before = unsigned((await server.api("GET", `/api/runs/${changed.runId}`, { key: org.apiKey })).body);
    const env = server.env;
    await server.stop();
    const out = await runCli(["replay"], env);
    if (out.code !== 0) throw new Error(`replay failed:\n${out.stdout}\n${out.stderr}`);
    server = await startServer(env);
    const after = (await server.api("GET", `/api/runs/${changed.runId}`, { key: org.apiKey })).body;
    // The base URL is the restarted server's: compare the views with it put back.
    const rebased = JSON.parse(JSON.stringify(unsigned(after)).replaceAll(server.baseUrl, "BASE"));
    const original = JSON.parse(JSON.stringify(before).replace(/http:\/\/127\.0\.0\.1:\d+/g, "BASE"));
    expect(rebased).toEqual(original);
    const size = pageOf(after, BOX_KEY).visual.sizes[0];
    expect((await fetch(size.diffUrl, { headers: { authorization: `Bearer ${org.apiKey}` } })).status).toBe(200);
  });
});
