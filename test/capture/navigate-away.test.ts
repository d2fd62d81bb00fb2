import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../support/harness";

/**
 * A page that navigates itself away while it is captured (a form submit, location, a meta refresh, window.open) is
 * never judged as another document: not as Chromium's error page (chrome-error://chromewebdata/, which a refused
 * navigation used to leave in the tab, with its own meta viewport that accessibility-wcag failed and charged), not
 * as about:blank, not as another origin's page. Either the subject stays and every verdict is the one the same page
 * gets without the navigation, or the job is interrupted with every row an error and the whole charge refunded.
 * Each case runs with few checks and with many (the web-essentials set plus axe, layout and screenshot checks),
 * through POST /api/jobs, with the ledger read back from GET /api/credits.
 */

/** Few checks, chosen so that Chromium's error page would not pass them (it has a title and a heading, but no description). */
const FEW = { validations: ["page-title", "meta-description"] };
const MANY = {
  validationSetId: "web-essentials",
  validations: [
    "accessibility-wcag",
    "color-contrast",
    "form-labels",
    "console-errors",
    "no-horizontal-overflow",
    "tap-targets",
    "font-size-body-min-max",
    "layout-not-broken",
  ],
};
const SIZES = { few: FEW, many: MANY } as const;

/** A clean page, so every check passes on it; `extra` (a script or a meta refresh) is what makes it leave. */
const subjectPage = (head = "", body = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="The quarterly report of a small bakery, with its figures.">
<title>Quarterly report</title>${head}</head><body><main><h1>Quarterly report</h1>
<p>Sales grew in every month of the quarter; the new oven paid for itself by March.</p>
<form id="leave" method="post" action="/subscribe"><input type="hidden" name="plan" value="monthly"></form>${body}</main></body></html>`;

/** The ways a page leaves, each to `to`. Those that run after load give the capture time to be under way. */
const leaving = (to: string) => ({
  "form submit": subjectPage(
    "",
    `<script>document.getElementById("leave").action = ${JSON.stringify(to)}; addEventListener("load", () => document.getElementById("leave").submit());</script>`,
  ),
  "location.href": subjectPage(
    "",
    `<script>addEventListener("load", () => setTimeout(() => (location.href = ${JSON.stringify(to)}), 300));</script>`,
  ),
  "meta refresh": subjectPage(`<meta http-equiv="refresh" content="0; url=${to}">`),
  "window.open (a pop-up)": subjectPage(
    "",
    `<script>addEventListener("load", () => window.open(${JSON.stringify(to)}));</script>`,
  ),
  "window.open into the same window": subjectPage(
    "",
    `<script>addEventListener("load", () => window.open(${JSON.stringify(to)}, "_self"));</script>`,
  ),
});

type Row = { validationId: string; verdict: string; reason?: string; findings: Array<{ message: string }> };
interface JobAnswer {
  jobId: string;
  status: string;
  results: Row[];
  credits: { charged: number; refunded: number; net: number };
  interruption?: { message: string };
}

const verdicts = (job: JobAnswer) =>
  Object.fromEntries(job.results.map((r) => [r.validationId, r.reason ? `${r.verdict}: ${r.reason}` : r.verdict]));

async function balanceOf(server: TestServer, key: string): Promise<number> {
  const res = await server.api("GET", "/api/credits", { key });
  expect(res.status).toBe(200);
  return res.body.balance;
}

/** Runs one job and checks the ledger moved by exactly the job's net charge. */
async function runJob(server: TestServer, key: string, body: Record<string, unknown>): Promise<JobAnswer> {
  const before = await balanceOf(server, key);
  const res = await server.api("POST", "/api/jobs", { key, body });
  expect({ status: res.status, body: res.status === 200 ? "job" : res.body }).toEqual({ status: 200, body: "job" });
  const job = res.body as JobAnswer;
  expect(await balanceOf(server, key)).toBe(before - job.credits.net);
  return job;
}

/** The subject stayed: every verdict is the one the page gets without leaving, and nothing was refunded. */
function expectSubjectJudged(job: JobAnswer, control: JobAnswer) {
  expect(job.interruption).toBeUndefined();
  expect(verdicts(job)).toEqual(verdicts(control));
  expect(job.credits.refunded).toBe(0);
}

/** The subject was not there to judge: every row an error naming the interruption, the whole charge refunded. */
function expectInterruptedAndRefunded(job: JobAnswer, reason: string) {
  expect(job.status).toBe("interrupted");
  expect(job.interruption?.message).toContain(reason);
  expect(job.results.filter((r) => r.verdict !== "error" || !r.reason?.includes(reason))).toEqual([]);
  expect(job.credits).toEqual({ charged: job.credits.charged, refunded: job.credits.charged, net: 0 });
}

/**
 * For a page that really leaves (to a document the capture does not hold back): the capture may be over before the
 * new document arrives (then every verdict is the subject's), or not (then the job is interrupted); never a third way.
 */
function expectNeverAnotherDocument(job: JobAnswer, control: JobAnswer, reason: string) {
  if (job.interruption) expectInterruptedAndRefunded(job, reason);
  else expectSubjectJudged(job, control);
}

describe("with the default guard: a page that leaves for a refused address stays the subject", () => {
  let server: TestServer;
  let key: string;
  /** A listener on loopback, which the default guard refuses: it counts every request that reaches it. */
  let sink: ReturnType<typeof Bun.serve>;
  const reached: string[] = [];
  const controls: Partial<Record<keyof typeof SIZES, JobAnswer>> = {};
  const html = (page: string, size: keyof typeof SIZES) => ({
    type: "static_html",
    html: page,
    baseUrl: "https://example.com/report",
    ...SIZES[size],
  });

  beforeAll(async () => {
    sink = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        reached.push(`${req.method} ${new URL(req.url).pathname}`);
        return new Response("<!doctype html><title>Internal</title><h1>Internal</h1>", {
          headers: { "content-type": "text/html" },
        });
      },
    });
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "" });
    key = (await server.signup()).apiKey;
    for (const size of ["few", "many"] as const) {
      controls[size] = await runJob(server, key, html(subjectPage(), size));
      // The control itself is the clean page judged: no error, nothing refunded.
      expect(controls[size]!.results.filter((r) => r.verdict !== "pass")).toEqual([]);
    }
  });
  afterAll(async () => {
    await server.stop();
    sink.stop(true);
  });

  for (const [how] of Object.entries(leaving("http://127.0.0.1/"))) {
    for (const size of ["few", "many"] as const) {
      test(`${how}, ${size} checks`, async () => {
        reached.length = 0;
        const page = leaving(`http://127.0.0.1:${sink.port}/internal`)[how as keyof ReturnType<typeof leaving>];
        const job = await runJob(server, key, html(page, size));
        expectSubjectJudged(job, controls[size]!);
        // The refused address was never reached, by the tab or by a pop-up.
        expect(reached).toEqual([]);
      });
    }
  }

  test("a page that replaces itself with about:blank is not judged as the blank page: interrupted, refunded", async () => {
    for (const size of ["few", "many"] as const) {
      const page = subjectPage("", `<script>addEventListener("load", () => (location.href = "about:blank"));</script>`);
      expectNeverAnotherDocument(
        await runJob(server, key, html(page, size)),
        controls[size]!,
        "The page navigated away from the subject while it was captured (its tab showed about:blank)",
      );
    }
  });
});

describe("with loopback open (ASSAY_ALLOW_PRIVATE_TARGETS=1): url jobs served by the test's own server", () => {
  let server: TestServer;
  let key: string;
  let site: ReturnType<typeof Bun.serve>;
  let closedPort: number;
  /** The paths the site was asked for. */
  const requested: string[] = [];
  const controls: Partial<Record<keyof typeof SIZES, JobAnswer>> = {};
  /** The page at /leave/<how>?to=<url> leaves for <url>; /stay is the control; /elsewhere is another page. */
  const urlOf = (path: string) => `http://127.0.0.1:${site.port}${path}`;
  const urlJob = (path: string, size: keyof typeof SIZES) => ({ type: "url", url: urlOf(path), ...SIZES[size] });

  beforeAll(async () => {
    site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const url = new URL(req.url);
        requested.push(url.pathname);
        const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
        if (url.pathname === "/stay") return html(subjectPage());
        if (url.pathname.startsWith("/leave/")) {
          const how = decodeURIComponent(url.pathname.slice("/leave/".length)) as keyof ReturnType<typeof leaving>;
          return html(leaving(url.searchParams.get("to")!)[how]);
        }
        return html(
          "<!doctype html><html><head><title>Elsewhere</title></head><body><p>Another document</p></body></html>",
        );
      },
    });
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    closedPort = closed.port!;
    closed.stop(true);
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
    key = (await server.signup()).apiKey;
    for (const size of ["few", "many"] as const) {
      controls[size] = await runJob(server, key, urlJob("/stay", size));
      expect(controls[size]!.results.filter((r) => r.verdict !== "pass")).toEqual([]);
    }
  });
  afterAll(async () => {
    await server.stop();
    site.stop(true);
  });

  for (const how of Object.keys(leaving(""))) {
    test(`${how} to the metadata address (link-local, refused even with loopback open): the page stays`, async () => {
      for (const size of ["few", "many"] as const) {
        const job = await runJob(
          server,
          key,
          urlJob(
            `/leave/${encodeURIComponent(how)}?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
            size,
          ),
        );
        expectSubjectJudged(job, controls[size]!);
      }
    });
  }

  test("a navigation whose request fails (nothing listens there) leaves the page as it was, not Chromium's error page", async () => {
    for (const size of ["few", "many"] as const) {
      const job = await runJob(
        server,
        key,
        urlJob(`/leave/location.href?to=${encodeURIComponent(`http://127.0.0.1:${closedPort}/`)}`, size),
      );
      expectSubjectJudged(job, controls[size]!);
    }
  });

  test("a page that leaves for another origin is not judged as that origin's page: interrupted, refunded", async () => {
    for (const size of ["few", "many"] as const) {
      const elsewhere = `http://localhost:${site.port}/elsewhere`;
      const job = await runJob(
        server,
        key,
        urlJob(`/leave/meta refresh?to=${encodeURIComponent(elsewhere)}`.replace(" ", "%20"), size),
      );
      expectNeverAnotherDocument(
        job,
        controls[size]!,
        `The page navigated away from the subject while it was captured (its tab showed ${elsewhere})`,
      );
    }
  });

  test("a static_html page that goes to another page of its base's origin stays the HTML given: that page is never fetched", async () => {
    for (const size of ["few", "many"] as const) {
      requested.length = 0;
      const page = leaving(urlOf("/elsewhere"))["location.href"];
      const job = await runJob(server, key, {
        type: "static_html",
        html: page,
        baseUrl: urlOf("/report"),
        ...SIZES[size],
      });
      expectSubjectJudged(job, controls[size]!);
      expect(requested).toEqual([]);
    }
  });

  test("a url job's page that goes to another page of its own origin is still followed (as a reload is)", async () => {
    const job = await runJob(
      server,
      key,
      urlJob(`/leave/location.href?to=${encodeURIComponent(urlOf("/stay?again"))}`, "few"),
    );
    expect(job.interruption).toBeUndefined();
    expect(verdicts(job)).toEqual(verdicts(controls.few!));
  });
});
