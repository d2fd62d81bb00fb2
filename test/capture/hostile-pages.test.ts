import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, startServer, type TestServer } from "../support/harness";
import { SELF_CHECK_IN_FULL } from "../support/self-check";

/**
 * Pages whose own scripts used to take Assay's verdicts away (test/fixtures/hostile-pages/README.md), each as a real
 * static_html job: every check that reads the DOM, axe, vitals, layout or screenshots ends with a verdict.
 * Checks that probe other hosts (broken links and images, the favicon) are left out: these pages are about the
 * page's scripts, and the tests have no outside network.
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "hostile-pages");
const CHECKS = [
  "page-title",
  "html-lang",
  "meta-description",
  "single-h1",
  "heading-order",
  "image-alt-text",
  "viewport-meta",
  "no-lorem-ipsum",
  "no-unrendered-placeholders",
  "console-errors",
  "mixed-content",
  "accessibility-wcag",
  "color-contrast",
  "form-labels",
  "core-web-vitals-lab",
  "no-horizontal-overflow",
  "tap-targets",
  "font-size-body-min-max",
  "layout-not-broken",
  "cta-visible",
];

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  // Loopback open: the url jobs below load pages from the test's own server (hostileSite).
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

async function runPage(file: string, validations: unknown[] = CHECKS) {
  const html = readFileSync(join(FIXTURES, file), "utf8");
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, validations) });
  expect({ status: res.status, body: res.status === 200 ? "job" : res.body }).toEqual({ status: 200, body: "job" });
  const results = res.body.results as Array<{
    validationId: string;
    verdict: string;
    reason?: string;
    findings: Array<{ message: string }>;
  }>;
  const errored = results.filter((r) => r.verdict === "error").map((r) => `${r.validationId}: ${r.reason}`);
  expect(errored).toEqual([]);
  return results;
}

describe("a page's own scripts cannot take its verdicts away", () => {
  test("an AMD loader whose define() throws: axe and the gatherers still run", async () => {
    const results = await runPage("amd-guard.html");
    expect(results.find((r) => r.validationId === "accessibility-wcag")!.verdict).toBe("pass");
  });

  test("a page that replaces performance.now (and Date.now): every check gets a verdict", async () => {
    await runPage("performance-now.html");
  });

  test("a page that assigns URL = '': links still resolve (the off-domain link is reported)", async () => {
    const results = await runPage("url-empty.html", [
      ...CHECKS,
      { id: "link-domain-allowlist", parameters: { allowedDomains: ["example.com"] } },
    ]);
    const allowlist = results.find((r) => r.validationId === "link-domain-allowlist")!;
    expect(allowlist.verdict).toBe("fail");
    expect(allowlist.findings.map((f) => f.message)).toEqual(["link to partner.example.net"]);
  });

  test("a prompt() loop on load: the prompt is answered, the page loads, and each dialog is a finding of console-errors", async () => {
    const results = await runPage("prompt-loop.html");
    const consoleRow = results.find((r) => r.validationId === "console-errors")!;
    expect(consoleRow.verdict).toBe("pass");
    expect(consoleRow.findings.map((f) => f.message)).toEqual([
      'prompt() dialog: "What is your name?" (answered "Assay")',
      'alert() dialog: "Nice to meet you" (dismissed)',
    ]);
  });

  test("a dialog storm on load: the first 20 dialogs are answered and listed, the rest answered without being shown", async () => {
    const results = await runPage("dialog-storm.html");
    const consoleRow = results.find((r) => r.validationId === "console-errors")!;
    expect(consoleRow.findings.length).toBe(20);
    expect(consoleRow.findings.slice(0, 2).map((f) => f.message)).toEqual([
      'alert() dialog: "Notice 1" (dismissed)',
      'confirm() dialog: "Continue 2?" (dismissed)',
    ]);
    expect(results.find((r) => r.validationId === "single-h1")!.verdict).toBe("pass");
  });

  test("a page of bad practices (document.write, deprecated APIs, replaced built-ins, many console errors, odd markup)", async () => {
    const results = await runPage("bad-practices.html");
    expect(results.find((r) => r.validationId === "console-errors")!.verdict).toBe("fail");
  });
});

/**
 * Pages that attack the browser rather than Assay's in-page code, each loaded by a url job from the test's own server:
 * every job ends (within the documented limits: 15 s to load, 45 s per capture, 10 MiB and 5 redirects per request),
 * with verdicts where the page could be captured and refunded error rows where it could not, and the next job on the
 * same server (the same browser) gets its verdicts.
 */
const LOADED_CHECKS = ["page-title", "single-h1", "console-errors", "layout-not-broken"];
/** Bytes of the image the test serves: five times the per-request cap. Generated, never committed. */
const HUGE_IMAGE = Buffer.alloc(50 * 1024 * 1024, 0xab);
const page = (title: string, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    {
      headers: { "content-type": "text/html; charset=utf-8" },
    },
  );

/** 200,000 nodes under `npm run self-check`; a fifth of that under `npm test` (the full size takes 30 s). */
const BIG_DOM_PARAGRAPHS = SELF_CHECK_IN_FULL ? 100_000 : 20_000;
let hostileSite: ReturnType<typeof Bun.serve<{ sent: number }>>;
/** What the test's server saw: requests by path (the query left out), and whether the flooding socket was closed. */
const site = { hits: new Map<string, number>(), floodClosed: false };
const hitsOf = (path: string) => site.hits.get(path) ?? 0;
beforeAll(() => {
  hostileSite = Bun.serve<{ sent: number }>({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      const path = new URL(req.url).pathname;
      site.hits.set(path, hitsOf(path) + 1);
      if (path === "/flood")
        return srv.upgrade(req, { data: { sent: 0 } }) ? undefined : new Response("not a WebSocket", { status: 400 });
      if (path === "/big-dom")
        return page("Every row", Array.from({ length: BIG_DOM_PARAGRAPHS }, (_, i) => `<p>${i}</p>`).join(""));
      if (path === "/tall")
        return page(
          "A long page",
          `<div style="height:100000px;background:linear-gradient(#fff,#345)">One hundred thousand pixels</div>`,
        );
      if (path === "/huge-image") return page("A photograph", `<img src="/huge.png" alt="A photograph">`);
      if (path === "/huge.png") return new Response(HUGE_IMAGE, { headers: { "content-type": "image/png" } });
      if (path.startsWith("/redirect/")) return Response.redirect(`/redirect/${Number(path.split("/")[2]) + 1}`, 302);
      if (path === "/circle-a") return Response.redirect("/circle-b", 302);
      if (path === "/circle-b") return Response.redirect("/circle-a", 302);
      if (path === "/download")
        return new Response("%PDF-1.7 report", {
          headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="report.pdf"' },
        });
      const file = Bun.file(join(FIXTURES, path.endsWith(".js") ? path.slice(1) : `${path.slice(1)}.html`));
      return file.exists().then((found) => (found ? new Response(file) : new Response("not found", { status: 404 })));
    },
    websocket: {
      // As fast as the socket takes them: send until the socket pushes back, then again each time it drains.
      open(ws) {
        while (ws.send("price update ".repeat(64)) > 0) ws.data.sent++;
      },
      drain(ws) {
        while (ws.send("price update ".repeat(64)) > 0) ws.data.sent++;
      },
      close() {
        site.floodClosed = true;
      },
      message() {},
    },
  });
});
afterAll(() => hostileSite.stop(true));

type Row = {
  validationId: string;
  verdict: string;
  reason?: string;
  screenshotUrl?: string;
  findings: Array<{ message: string }>;
};
interface JobAnswer {
  results: Row[];
  credits: { charged: number; refunded: number; net: number };
  interruption?: { message: string };
}

async function urlJob(path: string, validations: string[] = LOADED_CHECKS): Promise<JobAnswer> {
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "url", url: `http://127.0.0.1:${hostileSite.port}${path}`, validations },
  });
  expect({ status: res.status, body: res.status === 200 ? "job" : res.body }).toEqual({ status: 200, body: "job" });
  return res.body;
}

const verdictOf = (job: JobAnswer, id: string) => job.results.find((r) => r.validationId === id)!;

/** Every check got a verdict (the page was captured) and none was refunded. */
function expectVerdicts(job: JobAnswer) {
  expect(job.results.filter((r) => r.verdict === "error").map((r) => `${r.validationId}: ${r.reason}`)).toEqual([]);
  expect(job.credits.refunded).toBe(0);
}

/** The page could not be captured: every row is an error with the interruption's reason, all refunded. */
function expectRefundedInterruption(job: JobAnswer, reason: string) {
  expect(job.interruption?.message).toContain(reason);
  expect(job.results.every((r) => r.verdict === "error" && r.reason!.includes(reason))).toBe(true);
  expect(job.credits).toEqual({ charged: job.credits.charged, refunded: job.credits.charged, net: 0 });
}

/** The job after a hostile one, on the same server and browser pool, gets every verdict it would get anyway. */
async function expectNextJobUnaffected() {
  const html = `<!doctype html><html lang="en"><head><title>An ordinary page</title></head><body><h1>An ordinary page</h1><p>Nothing to see.</p></body></html>`;
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, LOADED_CHECKS) });
  expect(res.status).toBe(200);
  expect(res.body.results.map((r: Row) => [r.validationId, r.verdict])).toEqual(
    LOADED_CHECKS.map((id) => [id, "pass"]),
  );
}

/** A JPEG's pixel size, from its start-of-frame segment. */
function jpegSize(jpeg: Uint8Array): { width: number; height: number } {
  for (let i = 2; i + 9 < jpeg.length; ) {
    const marker = jpeg[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: (jpeg[i + 5]! << 8) | jpeg[i + 6]!, width: (jpeg[i + 7]! << 8) | jpeg[i + 8]! };
    i += 2 + ((jpeg[i + 2]! << 8) | jpeg[i + 3]!);
  }
  throw new Error("no start-of-frame segment in the JPEG");
}

const STOPPED =
  "The page's main thread did not answer for more than 5 s while it loaded (an endless loop?); Assay stopped the script running on it";

describe("pages that attack the browser", () => {
  test("an endless loop while loading: the watchdog stops it, the page loads, console-errors reports it", async () => {
    const job = await urlJob("/loop-at-load");
    expectVerdicts(job);
    expect(verdictOf(job, "console-errors").findings.map((f) => f.message)).toEqual([expect.stringContaining(STOPPED)]);
    await expectNextJobUnaffected();
  });

  test("an endless loop after load: the watchdog stops it and the gatherers run", async () => {
    const job = await urlJob("/loop-after-load");
    expectVerdicts(job);
    expect(verdictOf(job, "console-errors").verdict).toBe("fail");
    expect(verdictOf(job, "console-errors").findings[0]!.message).toContain(STOPPED);
    await expectNextJobUnaffected();
  });

  test("beforeunload and a page that reloads itself forever: five reloads are followed, the rest answered 204", async () => {
    const job = await urlJob("/reload-storm");
    expectVerdicts(job);
    // The document fetched once for the job, then five reloads; the sixth was answered 204 and the page stayed.
    expect(hitsOf("/reload-storm")).toBe(6);
    const consoleRow = verdictOf(job, "console-errors");
    expect(consoleRow.verdict).toBe("pass");
    expect(new Set(consoleRow.findings.map((f) => f.message))).toEqual(
      new Set(['beforeunload() dialog: "(not shown: Chromium blocks it before any user gesture)" (dismissed)']),
    );
    await expectNextJobUnaffected();
  });

  test("a window.open storm: Chromium's pop-up blocker opens none of them, the page loads", async () => {
    const job = await urlJob("/popup-storm");
    expectVerdicts(job);
    expect(hitsOf("/popup-storm")).toBe(1);
    expect(verdictOf(job, "console-errors").verdict).toBe("pass");
    await expectNextJobUnaffected();
  });

  test(`a ${(BIG_DOM_PARAGRAPHS * 2).toLocaleString("en")}-node DOM: verdicts, or (on a machine too slow to gather it in time) the documented time limit, refunded`, async () => {
    const job = await urlJob("/big-dom");
    if (job.interruption) expectRefundedInterruption(job, "The capture exceeded the total time limit of 45 s");
    else {
      expectVerdicts(job);
      expect(verdictOf(job, "single-h1").verdict).toBe("pass");
    }
    await expectNextJobUnaffected();
  });

  test("a 100,000 px tall page: the screenshot stops at 8,000 CSS pixels", async () => {
    const job = await urlJob("/tall");
    expectVerdicts(job);
    const shot = await fetch(verdictOf(job, "layout-not-broken").screenshotUrl!, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(shot.status).toBe(200);
    expect(jpegSize(new Uint8Array(await shot.arrayBuffer()))).toEqual({ width: 1280, height: 8000 });
    await expectNextJobUnaffected();
  });

  test("a 50 MB image is cut off at the 10 MiB request cap and reported broken", async () => {
    const job = await urlJob("/huge-image", [...LOADED_CHECKS, "broken-images"]);
    expect(job.results.filter((r) => r.verdict === "error")).toEqual([]);
    expect(verdictOf(job, "broken-images").findings.map((f) => f.message)).toEqual([
      expect.stringContaining("the response is larger than 10485760 bytes"),
    ]);
    await expectNextJobUnaffected();
  });

  test("endless and circular redirects of the job's URL: refunded, with the reason", async () => {
    expectRefundedInterruption(await urlJob("/redirect/0"), "more than 5 redirects");
    expectRefundedInterruption(await urlJob("/circle-a"), "more than 5 redirects");
    await expectNextJobUnaffected();
  });

  test("endless and circular redirects of subresources: the images are broken, the page gets its verdicts", async () => {
    const job = await urlJob("/redirecting-subresources", [...LOADED_CHECKS, "broken-images"]);
    expect(job.results.filter((r) => r.verdict === "error")).toEqual([]);
    expect(verdictOf(job, "broken-images").findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/\/redirect\/0: the request failed: more than 5 redirects$/),
      expect.stringMatching(/\/circle-a: the request failed: more than 5 redirects$/),
    ]);
    await expectNextJobUnaffected();
  });

  test("a page that exhausts its renderer's memory crashes it: refunded, with the reason, and the browser carries on", async () => {
    expectRefundedInterruption(await urlJob("/memory-hog"), "The page crashed its renderer");
    await expectNextJobUnaffected();
  });

  test("downloads: a job URL that is an attachment is refunded with the reason; a page that clicks a download link gets its verdicts", async () => {
    expectRefundedInterruption(
      await urlJob("/download"),
      "answers with a download (Content-Disposition: attachment), not a page to capture",
    );
    expectVerdicts(await urlJob("/download-link"));
    await expectNextJobUnaffected();
  });

  test("a service worker that would answer every request is never installed: the page is the network's", async () => {
    const job = await urlJob("/service-worker");
    expectVerdicts(job);
    expect(verdictOf(job, "single-h1").verdict).toBe("pass");
    expect(hitsOf("/service-worker.js")).toBe(0);
    await expectNextJobUnaffected();
  });

  test("a WebSocket flood: the socket is closed after 1,000 messages and the page gets its verdicts", async () => {
    const job = await urlJob("/websocket-flood");
    expectVerdicts(job);
    expect(site.floodClosed).toBe(true);
    await expectNextJobUnaffected();
  });
});
