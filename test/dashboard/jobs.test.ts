import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventCount, expectError, htmlJob, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { page } from "../support/pages";

/**
 * The jobs pages as a browser without JavaScript reads them: the list (status filter, pages by cursor) and one
 * job (verdicts, reasons, findings, screenshots that load for the session, credits, an email job's headers and
 * its raw message to download). Another organization's job, capture and message read as missing ones. Real
 * server, real jobs through POST /api/jobs, real sign-in by emailed link, mail delivered over SMTP; once in Chromium.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;

/** An organization by signup (its key runs jobs) whose signup email then signs in (the session acts for it). */
interface Org {
  apiKey: string;
  customerId: string;
  email: string;
  who: SignedIn;
}
let owner: Org;
let stranger: Org;
let webJob: any;
let emailJob: any;

const PAGE = `<html lang="en"><head><title>Spring sale</title><meta name="viewport" content="width=device-width"></head>
<body><h1>Spring sale</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" class="hero-shot" width="10" height="10">
<a href="/go" style="background:#036;color:#fff;padding:12px">Shop the sale</a></body></html>`;
const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];

async function organization(tag: string): Promise<Org> {
  const email = uniqueEmail(tag);
  const { apiKey, customerId } = await server.signup(email);
  const who = await signIn(server, relay, email);
  expect(who.customerId).toBe(customerId);
  return { apiKey, customerId, email, who };
}

async function runJob(org: Org, body: unknown) {
  const res = await server.api("POST", "/api/jobs", { key: org.apiKey, body });
  expect(res.status).toBe(200);
  return res.body;
}

async function settled(org: Org, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: org.apiKey });
    if (res.body.jobs[0].status !== "pending") return res.body.jobs[0];
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

const capturePath = (url: string) => new URL(url).pathname;
/** The share link (path and query, as the HTML holds it) a page gives a capture. */
const sharedPathOn = (html: string, path: string) => new RegExp(`<img src="(${path}/shared\\?[^"]+)"`).exec(html)![1]!;
const jobIdsOn = (html: string) => [...html.matchAll(/<tr id="(job_[^"]+)">/g)].map((m) => m[1]);
const nextLinkOn = (html: string) =>
  /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(html)?.[1]?.replaceAll("&amp;", "&");

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
  owner = await organization("jobs-owner");
  stranger = await organization("jobs-stranger");
  webJob = await runJob(owner, htmlJob(PAGE, ["image-alt-text", "cta-visible"]));
  const pending = await runJob(owner, {
    type: "email",
    validations: [...EMAIL_CHECKS, "email-dark-mode-legible"],
    subject: "Spring sale: boots",
  });
  await nodemailer
    .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
    .sendMail({
      from: '"Trailhead" <offers@trailhead.example>',
      to: pending.testEmail,
      subject: "Spring sale: boots",
      text: "Hello",
      html: '<p>Hello</p><p><a href="https://trailhead.example/boots">See the boots</a></p><img src="https://cdn.trailhead.example/boots.png" alt="Boots">',
      attachments: [{ filename: "terms.txt", content: "The terms." }],
      headers: { "List-Unsubscribe": "<https://trailhead.example/u?id=1>", "X-Campaign": "spring <2025>" },
    });
  emailJob = await settled(owner, pending.jobId);
}, 180_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

describe("the jobs list", () => {
  test("signed out, the list and a job page send the person to sign in and back", async () => {
    const list = await page(server, "/dashboard/jobs?status=completed");
    expect(list.status).toBe(303);
    expect(list.headers.get("location")).toBe("/signin?next=%2Fdashboard%2Fjobs%3Fstatus%3Dcompleted");
    const one = await page(server, `/dashboard/jobs/${webJob.jobId}`);
    expect(one.status).toBe(303);
    expect(one.headers.get("location")).toBe(`/signin?next=${encodeURIComponent(`/dashboard/jobs/${webJob.jobId}`)}`);
  });

  test("newest first, with status, subject, verdict counts, credits, date and a link to each job; nothing of another organization", async () => {
    const res = await page(server, "/dashboard/jobs", owner.who.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(jobIdsOn(res.text)).toEqual([emailJob.jobId, webJob.jobId]);
    const webRow = res.text.slice(res.text.indexOf(`<tr id="${webJob.jobId}">`));
    expect(webRow).toContain(`href="/dashboard/jobs/${webJob.jobId}"`);
    expect(webRow).toContain("HTML at <span>https://example.com/</span>");
    expect(webRow).toContain(
      `${webJob.summary.pass} pass</span>, <span class="fail">${webJob.summary.fail} fail</span>`,
    );
    expect(webJob.summary.fail).toBeGreaterThan(0);
    expect(webRow).toContain(`${webJob.credits.charged} charged`);
    expect(webRow).toContain(`<time datetime="${webJob.createdAt}">`);
    const emailRow = res.text.slice(
      res.text.indexOf(`<tr id="${emailJob.jobId}">`),
      res.text.indexOf(`<tr id="${webJob.jobId}">`),
    );
    expect(emailRow).toContain(`Email to <span>${emailJob.testEmail}</span>`);
    expect(emailRow).toContain("Spring sale: boots");
    expect(jobIdsOn((await page(server, "/dashboard/jobs", stranger.who.cookie)).text)).toEqual([]);
  });

  test("a status filter and pages by cursor: the next page's link carries the cursor and the filter", async () => {
    const org = await organization("jobs-pages");
    const done = await runJob(org, htmlJob(PAGE, ["page-title"]));
    const waiting = [];
    for (const subject of ["first", "second <b>bold</b>", "third"])
      waiting.push(await runJob(org, { type: "email", validations: EMAIL_CHECKS, subject }));
    const completed = await page(server, "/dashboard/jobs?status=completed", org.who.cookie);
    expect(jobIdsOn(completed.text)).toEqual([done.jobId]);
    expect(completed.text).toContain('<option value="completed" selected>');
    expect(nextLinkOn(completed.text)).toBeUndefined();

    const first = await page(server, "/dashboard/jobs?status=pending&limit=2", org.who.cookie);
    expect(jobIdsOn(first.text)).toEqual([waiting[2].jobId, waiting[1].jobId]);
    expect(first.text).toContain('<input type="hidden" name="limit" value="2"/>');
    expect(first.text).toContain("second &lt;b&gt;bold&lt;/b&gt;");
    expect(first.text).not.toContain("<b>bold</b>");
    const next = nextLinkOn(first.text)!;
    const params = new URL(next, server.baseUrl).searchParams;
    expect([params.get("status"), params.get("limit"), !!params.get("cursor")]).toEqual(["pending", "2", true]);
    const second = await page(server, next, org.who.cookie);
    expect(second.status).toBe(200);
    expect(jobIdsOn(second.text)).toEqual([waiting[0].jobId]);
    expect(nextLinkOn(second.text)).toBeUndefined();
    expect(second.text).toContain('<a href="/dashboard/jobs?status=pending&limit=2">Newest jobs</a>');
  });

  test("a cursor this service did not issue is refused as on /api, with its status", async () => {
    const res = await page(server, "/dashboard/jobs?cursor=nonsense", owner.who.cookie);
    expect(res.status).toBe(400);
    expect(res.text).toContain("INVALID_REQUEST_BODY");
  });
});

describe("a job's page", () => {
  test("every verdict with its reason, findings with their elements, credits, and each screenshot once, viewable large", async () => {
    const res = await page(server, `/dashboard/jobs/${webJob.jobId}`, owner.who.cookie);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain(`<h1>Job ${webJob.jobId}</h1>`);
    for (const r of webJob.results) {
      expect(html).toContain(
        `<h3 id="result-${r.validationId}-heading"><span>${r.name}</span>: <span class="${r.verdict}">${r.verdict}</span></h3>`,
      );
    }
    const alt = webJob.results.find((r: any) => r.validationId === "image-alt-text");
    expect(alt.verdict).toBe("fail");
    expect(html).toContain(Bun.escapeHTML(alt.reason));
    expect(alt.findings.length).toBeGreaterThan(0);
    for (const f of alt.findings) {
      expect(html).toContain(`<p>${Bun.escapeHTML(f.message)}</p>`);
      expect(html).toContain(`<code>${Bun.escapeHTML(f.selector)}</code>`);
    }
    // The decision first, then the blocking check with its severity as a badge; the passes collapsed after.
    expect(html).toContain('<span class="badge badge-blocked">Blocked</span> <span>by “Images have alt text”.</span>');
    const order = ['aria-label="Decision"', 'id="blocking-heading"', '<details class="passed">'].map((s) =>
      html.indexOf(s),
    );
    expect(order.every((i) => i > 0) && order[0]! < order[1]! && order[1]! < order[2]!).toBe(true);
    expect(html).toContain('<span class="badge severity severity-major">major</span> <code>image-alt-text</code>');
    expect(html).toContain(`<a href="/dashboard/jobs/${webJob.jobId}/feedback/image-alt-text">Looks wrong?`);
    expect(html).toContain(
      `${webJob.credits.charged} charged, ${webJob.credits.refunded} refunded, ${webJob.credits.net} net`,
    );
    const cta = webJob.results.find((r: any) => r.validationId === "cta-visible");
    expect(cta.captures.length).toBe(3);
    for (const c of cta.captures) {
      // Each screenshot by a share link made as the page is drawn: it loads without the session, for a while.
      const shared = sharedPathOn(html, capturePath(c.screenshotUrl));
      expect(html).toContain(`<img src="${shared}" alt="Screenshot at ${c.viewport}"`);
      expect(html).toContain(`<a href="${shared}">view large</a>`);
      expect(html.split(`<img src="${shared}"`).length).toBe(2);
      const image = await fetch(`${server.baseUrl}${shared.replaceAll("&amp;", "&")}`);
      expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
    }
    expect(html).not.toContain("The message");
  });

  test("its screenshots load for the session of the organization; another organization's read as a missing capture", async () => {
    const path = capturePath(webJob.results.find((r: any) => r.captures).captures[0].screenshotUrl);
    const own = await fetch(`${server.baseUrl}${path}`, { headers: { cookie: owner.who.cookie } });
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await own.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    const before = eventCount(server);
    const foreign = await server.api("GET", path, { headers: { cookie: stranger.who.cookie } });
    const missing = await server.api("GET", "/api/captures/job_nothing-desktop-md.jpg", {
      headers: { cookie: stranger.who.cookie },
    });
    expectError(foreign, 404, "STORAGE_OBJECT_NOT_FOUND");
    expectError(missing, 404, "STORAGE_OBJECT_NOT_FOUND");
    expect(foreign.body.message).toBe(missing.body.message);
    expect(eventCount(server)).toBe(before);
  });

  test("a session naming another organization is refused as a key would be, on every route the pages read", async () => {
    const path = capturePath(webJob.results.find((r: any) => r.captures).captures[0].screenshotUrl);
    const headers = { cookie: stranger.who.cookie };
    for (const url of [
      `/api/jobs?customerId=${owner.customerId}`,
      `${path}?customerId=${owner.customerId}`,
      `/api/jobs/${emailJob.jobId}/email?customerId=${owner.customerId}`,
    ]) {
      expectError(await server.api("GET", url, { headers }), 403, "CUSTOMER_SCOPE_MISMATCH");
    }
    const own = await server.api("GET", `/api/jobs?customerId=${stranger.customerId}`, { headers });
    expect([own.status, own.body.jobs]).toEqual([200, []]);
  });

  test("another organization's job reads exactly as a missing one", async () => {
    const foreign = await page(server, `/dashboard/jobs/${webJob.jobId}`, stranger.who.cookie);
    const missing = await page(server, "/dashboard/jobs/job_doesnotexist", stranger.who.cookie);
    for (const res of [foreign, missing]) {
      expect(res.status).toBe(404);
      expect(res.text).toContain("<code>JOB_NOT_FOUND</code>");
      expect(res.text).not.toContain("Spring sale");
    }
    expect(foreign.text.replaceAll(webJob.jobId, "job_doesnotexist")).toBe(missing.text);
  });

  test("an email job shows the message's headers (escaped) and links its raw download", async () => {
    const res = await page(server, `/dashboard/jobs/${emailJob.jobId}`, owner.who.cookie);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain('<h2 id="email-heading">The message</h2>');
    expect(html).toContain(`<a href="/api/jobs/${emailJob.jobId}/email" download="${emailJob.jobId}.eml">`);
    expect(html).toContain('<th scope="row">subject</th><td class="header-value">Spring sale: boots</td>');
    expect(html).toContain('<th scope="row">x-campaign</th><td class="header-value">spring &lt;2025&gt;</td>');
    expect(html).toContain("&lt;https://trailhead.example/u?id=1&gt;");
    for (const r of emailJob.results) expect(html).toContain(`<span class="${r.verdict}">${r.verdict}</span>`);
  });

  test("an email job previews the message as Mailpit does: sandboxed HTML with images on or off, text, links, attachments, source; renders captioned by mail client and mode", async () => {
    const path = `/dashboard/jobs/${emailJob.jobId}`;
    const html = (await page(server, path, owner.who.cookie)).text;
    const frame =
      /<iframe class="email-frame" title="The message's HTML part" sandbox="" referrerpolicy="no-referrer" srcdoc="([^"]*)"/.exec(
        html,
      );
    expect(frame).not.toBeNull();
    expect(frame![1]).toContain("&lt;a href=&quot;https://trailhead.example/boots&quot;&gt;See the boots&lt;/a&gt;");
    expect(frame![1]).not.toContain("Content-Security-Policy");
    expect(html).toContain(`<a href="${path}?images=off#email-heading">turn them off</a>`);
    const off = (await page(server, `${path}?images=off`, owner.who.cookie)).text;
    expect(off).toContain("Content-Security-Policy&quot; content=&quot;img-src &#x27;none&#x27;");
    expect(off).toContain(`<a href="${path}?images=on#email-heading">turn them on</a>`);
    expect(html).toMatch(/<summary>Text<\/summary><pre>Hello\s*<\/pre>/);
    expect(html).toContain("<code>https://trailhead.example/boots</code> “<span>See the boots</span>”");
    expect(html).toContain("<span>terms.txt</span>, <code>text/plain</code>, 10 bytes");
    expect(html).toContain("<summary>Source</summary>");
    expect(html).toContain("X-Campaign: spring &lt;2025&gt;");
    const dark = emailJob.results.find((r: any) => r.validationId === "email-dark-mode-legible");
    expect(dark.captures.length).toBeGreaterThan(0);
    expect(html).toContain("<span>Apple Mail, iPhone, dark</span>: <a href=");
    expect(html).not.toMatch(/<figcaption><span>mobile-sm<\/span>/);
  });

  test("an email job still waiting says where to send the message", async () => {
    const waiting = await runJob(owner, { type: "email", validations: EMAIL_CHECKS });
    const res = await page(server, `/dashboard/jobs/${waiting.jobId}`, owner.who.cookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`No message has arrived yet. Send it to <code>${waiting.testEmail}</code>`);
    expect(res.text).not.toContain("Download the raw message");
  });
});

describe("GET /api/jobs/{jobId}/email", () => {
  test("the raw message as received, as an attachment named after the job, with the key or the session", async () => {
    const byKey = await fetch(`${server.baseUrl}/api/jobs/${emailJob.jobId}/email`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    const bySession = await fetch(`${server.baseUrl}/api/jobs/${emailJob.jobId}/email`, {
      headers: { cookie: owner.who.cookie },
    });
    for (const res of [byKey, bySession]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("message/rfc822");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${emailJob.jobId}.eml"`);
    }
    const raw = await byKey.text();
    expect(raw).toContain("Subject: Spring sale: boots");
    expect(raw).toContain("X-Campaign: spring <2025>");
    expect(await bySession.text()).toBe(raw);
  });

  test("another organization's job is JOB_NOT_FOUND as a missing one; a job holding no message is STORAGE_OBJECT_NOT_FOUND", async () => {
    const before = eventCount(server);
    expectError(
      await server.api("GET", `/api/jobs/${emailJob.jobId}/email`, { key: stranger.apiKey }),
      404,
      "JOB_NOT_FOUND",
    );
    expectError(
      await server.api("GET", `/api/jobs/${emailJob.jobId}/email`, { headers: { cookie: stranger.who.cookie } }),
      404,
      "JOB_NOT_FOUND",
    );
    expectError(
      await server.api("GET", "/api/jobs/job_doesnotexist/email", { key: stranger.apiKey }),
      404,
      "JOB_NOT_FOUND",
    );
    expectError(
      await server.api("GET", `/api/jobs/${webJob.jobId}/email`, { key: owner.apiKey }),
      404,
      "STORAGE_OBJECT_NOT_FOUND",
    );
    const waiting = await runJob(owner, { type: "email", validations: EMAIL_CHECKS });
    expectError(
      await server.api("GET", `/api/jobs/${waiting.jobId}/email`, { key: owner.apiKey }),
      404,
      "STORAGE_OBJECT_NOT_FOUND",
    );
    expectError(await server.api("GET", `/api/jobs/${emailJob.jobId}/email`), 401, "AUTH_REQUIRED");
    expect(eventCount(server)).toBe(before + 2); // the waiting job's acceptance and charge, nothing for the refusals
  });
});

describe("in real Chromium", () => {
  test("sign in by the emailed link, open a finished job: its verdicts, its screenshots load, the large view opens", async () => {
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
    const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
    try {
      const tab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      const jobPage = `${server.baseUrl}/dashboard/jobs/${webJob.jobId}`;
      await tab.goto(jobPage);
      await tab.getByLabel("Email").fill(owner.email);
      await tab.getByRole("button", { name: "Email me a sign-in link" }).click();
      await tab.goto(await relay.linkFor(owner.email));
      expect(tab.url()).toBe(jobPage);
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe(`Job ${webJob.jobId}`);
      await tab.getByText("Passed (1)").click();
      for (const r of webJob.results) {
        expect(await tab.getByRole("heading", { level: 3, name: `${r.name}: ${r.verdict}` }).count()).toBe(1);
      }
      const images = tab.locator("figure.shot img");
      expect(await images.count()).toBe(3);
      for (const img of await images.all()) {
        await img.scrollIntoViewIfNeeded();
        expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      }
      const first = webJob.results.find((r: any) => r.captures).captures[0];
      const sharedPrefix = `${server.baseUrl}${capturePath(first.screenshotUrl)}/shared?`;
      const [large] = await Promise.all([
        tab.waitForResponse((r) => r.url().startsWith(sharedPrefix)),
        tab.getByRole("link", { name: "view large" }).first().click(),
      ]);
      expect(large.status()).toBe(200);
      expect(large.headers()["content-type"]).toBe("image/jpeg");
      expect(tab.url().startsWith(sharedPrefix)).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
