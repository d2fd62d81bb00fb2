import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { findSet } from "../../src/catalog/sets";
import { uniqueEmail, type TestServer } from "../support/harness";
import { inSession, signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { page, postForm, type PageAnswer } from "../support/pages";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Assay checks itself: each page it serves to people, as a signed-in person sees it, goes through the API as a
 * static_html job rendered at the page's own address at 375 and 1280 px, with the launch-readiness set and the
 * accessibility set's checks (one job), and every verdict must be pass. Loopback is opened to the checks (ASSAY_ALLOW_PRIVATE_TARGETS)
 * so that the icon and the links the pages carry are really fetched.
 */

setDefaultTimeout(300_000);
/** Both sets in one job: the launch-readiness set, and the accessibility set's checks added to it. */
const ACCESSIBILITY = findSet("accessibility")!.validationIds;
/** A phone's width (375 px) and a desktop's (1280 px): every page must hold up at both. */
const SIZES = ["mobile-sm", "desktop-md"];
const CHECKS = new Set([...findSet("launch-readiness")!.validationIds, ...ACCESSIBILITY]);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let person: SignedIn;
let apiKey: string;
let jobId: string;
let runId: string;
let siteRunId: string;
let newcomer: SignedIn;
let waitingJobId: string;
let endpointId: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" }));
  person = await signIn(server, relay, uniqueEmail("self-check"));
  const minted = await server.api("POST", "/api/keys", {
    headers: inSession(person),
    body: { name: "self-check", scopes: ["jobs:read", "jobs:write", "account:read"] },
  });
  expect(minted.status).toBe(201);
  apiKey = minted.body.apiKey;
  // A webhook endpoint, so that the job below has a delivery in its log.
  receiver = startWebhookReceiver();
  const endpoint = await server.api("POST", "/api/webhooks", {
    headers: inSession(person),
    body: { url: receiver.url("/hooks"), events: ["job.completed"], description: "self-check" },
  });
  expect(endpoint.status).toBe(201);
  endpointId = endpoint.body.endpointId;
  // A finished job with screenshots and a failing verdict, for the jobs list and the job page.
  const job = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: {
      type: "static_html",
      html: "<!doctype html><html lang=en><title>Two headings</title><h1>One</h1><h1>Two</h1>",
      baseUrl: "https://example.com/",
      validations: ["single-h1", "layout-not-broken"],
    },
  });
  expect(job.status).toBe(200);
  jobId = job.body.jobId;
  // A playground run with a failing verdict and its screenshot, for the run page.
  const run = await server.api("POST", "/api/playground/runs", {
    body: {
      html: "<!doctype html><html lang=en><title>Two headings</title><h1>One</h1><h1>Two</h1>",
      baseUrl: "https://example.com/",
    },
  });
  expect(run.status).toBe(201);
  runId = run.body.runId;
  // Someone with no job yet, for the empty state; an email job waiting for its message.
  newcomer = await signIn(server, relay, uniqueEmail("self-check-newcomer"));
  const waiting = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validationSetId: "transactional" },
  });
  expect(waiting.status).toBe(200);
  waitingJobId = waiting.body.jobId;
  // A project with two runs (a failure fixed, one new, one accepted), for the projects and runs pages.
  const site = (html: string, path: string) => ({
    type: "static_html",
    html,
    baseUrl: `https://example.com/${path}`,
    validations: ["page-title", "single-h1"],
  });
  const good = "<!doctype html><html lang=en><title>Good</title><h1>One</h1>";
  const untitled = "<!doctype html><html lang=en><h1>One</h1>";
  const twoHeadings = "<!doctype html><html lang=en><title>Two</title><h1>One</h1><h1>Two</h1>";
  for (const [branch, pages] of [
    ["main", [site(good, ""), site(untitled, "about")]],
    ["feature", [site(untitled, ""), site(twoHeadings, "about")]],
  ] as const) {
    const siteRun = await server.api("POST", "/api/runs", {
      key: apiKey,
      body: {
        project: "self-check",
        branch,
        pages,
        ignores: [{ check: "single-h1", reason: "Accepted for the self-check" }],
        wait: true,
      },
    });
    expect(siteRun.status).toBe(200);
    siteRunId = siteRun.body.runId;
  }
}, 300_000);
afterAll(async () => {
  await stopServer?.();
  receiver?.stop();
}, 120_000);

/** The looks-wrong form for the failing verdict, filed as a person would; then the page showing what was filed. */
async function fileFeedback(): Promise<PageAnswer> {
  const path = `/dashboard/jobs/${jobId}/feedback/single-h1`;
  const fields = {
    _csrf: person.csrfToken,
    setId: "looks-wrong",
    jobId,
    validationId: "single-h1",
    "answer.humanVerdict": "fail",
    "answer.aiMistakeNotes": "",
    "answer.verdictComments": "Two h1 elements.",
    "answer.feedbackNotes": "",
  };
  expect((await postForm(server, path, fields, { cookie: person.cookie })).status).toBe(303);
  return page(server, `${path}?done=filed`, person.cookie);
}

/** The pages, each as the HTML a browser gets at its address. */
const pages: Array<[string, () => Promise<PageAnswer>]> = [
  ["/signin", () => page(server, "/signin")],
  [
    "/signin (link sent)",
    () => postForm(server, "/signin", { email: uniqueEmail("self-check-link"), next: "/dashboard" }),
  ],
  ["/device", () => page(server, "/device", person.cookie)],
  [
    "/dashboard/keys (a secret shown once)",
    () =>
      postForm(
        server,
        "/dashboard/keys",
        { _csrf: person.csrfToken, name: "shown", scopes: ["jobs:read"] },
        { cookie: person.cookie },
      ),
  ],
  ["/dashboard/keys", () => page(server, "/dashboard/keys", person.cookie)],
  ["/dashboard/jobs", () => page(server, "/dashboard/jobs", person.cookie)],
  ["/dashboard/jobs (no jobs yet)", () => page(server, "/dashboard/jobs", newcomer.cookie)],
  ["/dashboard/jobs/{jobId}", () => page(server, `/dashboard/jobs/${jobId}`, person.cookie)],
  [
    "/dashboard/jobs/{waitingJobId} (an email job waiting)",
    () => page(server, `/dashboard/jobs/${waitingJobId}`, person.cookie),
  ],
  [
    "/dashboard/jobs/{jobId}/feedback/single-h1",
    () => page(server, `/dashboard/jobs/${jobId}/feedback/single-h1`, person.cookie),
  ],
  ["/dashboard/jobs/{jobId}/feedback/single-h1 (filed)", () => fileFeedback()],
  ["/dashboard/projects", () => page(server, "/dashboard/projects", person.cookie)],
  ["/dashboard/projects/self-check", () => page(server, "/dashboard/projects/self-check", person.cookie)],
  ["/dashboard/runs/{siteRunId}", () => page(server, `/dashboard/runs/${siteRunId}`, person.cookie)],
  ["/dashboard/credits", () => page(server, "/dashboard/credits", person.cookie)],
  ["/dashboard/members", () => page(server, "/dashboard/members", person.cookie)],
  [
    "/dashboard/webhooks (a secret shown once)",
    () =>
      postForm(
        server,
        "/dashboard/webhooks",
        { _csrf: person.csrfToken, url: receiver.url("/shown"), events: ["job.completed"] },
        { cookie: person.cookie },
      ),
  ],
  ["/dashboard/webhooks", () => page(server, "/dashboard/webhooks", person.cookie)],
  ["/dashboard/webhooks/{endpointId}", () => page(server, `/dashboard/webhooks/${endpointId}`, person.cookie)],
  ["/playground", () => page(server, "/playground")],
  ["/playground (a refusal)", () => postForm(server, "/playground", { url: "http://10.0.0.1/" })],
  ["/playground/runs/{runId}", () => page(server, `/playground/runs/${runId}`)],
];

test.each(pages)("%s passes launch-readiness and accessibility", async (label, load) => {
  const shown = await load();
  expect(shown.status).toBeLessThan(label.endsWith("(a refusal)") ? 500 : 300);
  const path = label
    .split(" ")[0]!
    .replace("{jobId}", jobId)
    .replace("{runId}", runId)
    .replace("{siteRunId}", siteRunId)
    .replace("{waitingJobId}", waitingJobId);
  const baseUrl = `${server.baseUrl}${path.replace("{endpointId}", endpointId)}`;
  const job = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: {
      type: "static_html",
      html: shown.text,
      baseUrl,
      validationSetId: "launch-readiness",
      validations: ACCESSIBILITY,
      captureSizes: SIZES,
    },
  });
  expect(job.status).toBe(200);
  expect(new Set(job.body.results.map((r: { validationId: string }) => r.validationId))).toEqual(CHECKS);
  const failing = job.body.results
    .filter((r: { verdict: string }) => r.verdict !== "pass")
    .map((r: { validationId: string; verdict: string; reason?: string; findings: unknown[] }) => ({
      check: r.validationId,
      verdict: r.verdict,
      reason: r.reason,
      findings: r.findings.slice(0, 3),
    }));
  expect({ page: label, failing }).toEqual({ page: label, failing: [] });
});
