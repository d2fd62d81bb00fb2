import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventCount, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { page, postForm } from "../support/pages";

/**
 * Starting a job from the dashboard as a signed-in person: the empty state says how (the forms, `assay run`, MCP);
 * pasted HTML runs through run_job and lands on its job page; an email job shows its test address and its page
 * waits (reloading) until the message sent there is checked; a form without the CSRF token or with a bad subject
 * is refused with its code, nothing charged. Once in Chromium at 375 px.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;

const HTML = `<!doctype html><html lang="en"><head><title>Boots</title></head><body><h1>Boots</h1></body></html>`;

async function person(tag: string): Promise<SignedIn & { apiKey: string }> {
  const email = uniqueEmail(tag);
  const { apiKey } = await server.signup(email);
  return { ...(await signIn(server, relay, email)), apiKey };
}

const balanceOf = async (apiKey: string) =>
  (await server.api("GET", "/api/credits", { key: apiKey })).body.balance as number;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
}, 120_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

describe("without JavaScript", () => {
  test("with no job yet, the page opens the forms and says how else: assay run, MCP, the API", async () => {
    const who = await person("start-empty");
    const shown = await page(server, "/dashboard/jobs", who.cookie);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<details class="start-job" open>');
    for (const type of ["url", "static_html", "email"])
      expect(shown.text).toContain(`<input type="hidden" name="type" value="${type}"/>`);
    expect(shown.text).toContain('<option value="web-essentials" selected>');
    expect(shown.text).toContain(`<code>assay login --base-url ${server.baseUrl}</code>`);
    expect(shown.text).toContain("<code>assay run --url https://example.com/</code>");
    expect(shown.text).toContain("<code>claude mcp add --scope user assay -- assay mcp</code>");
  });

  test("pasted HTML runs as a job of the organization with the chosen set, and the page lands on it", async () => {
    const who = await person("start-html");
    const started = await postForm(
      server,
      "/dashboard/jobs",
      {
        _csrf: who.csrfToken,
        type: "static_html",
        html: HTML,
        baseUrl: "https://shop.example/boots",
        validationSetId: "web-essentials",
      },
      { cookie: who.cookie },
    );
    expect(started.status).toBe(303);
    const jobId = /^\/dashboard\/jobs\/(job_\w+)$/.exec(started.headers.get("location") ?? "")?.[1];
    expect(jobId).toBeDefined();
    const job = (await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: who.apiKey })).body.jobs[0];
    expect([job.type, job.status, job.subject.baseUrl]).toEqual([
      "static_html",
      "completed",
      "https://shop.example/boots",
    ]);
    expect(job.validationSets[0].validationSetId).toBe("web-essentials");
    const shown = await page(server, `/dashboard/jobs/${jobId}`, who.cookie);
    expect(shown.text).toContain('aria-label="Decision"');
    expect(shown.text).not.toContain("Waiting: this page updates itself");
    const list = await page(server, "/dashboard/jobs", who.cookie);
    expect(list.text).toContain(`<tr id="${jobId}">`);
    expect(list.text).toContain('<details class="start-job">');
  });

  test("an email job shows its test address and waits until the message sent there is checked", async () => {
    const who = await person("start-email");
    const started = await postForm(
      server,
      "/dashboard/jobs",
      { _csrf: who.csrfToken, type: "email", subject: "Spring sale", validationSetId: "transactional" },
      { cookie: who.cookie },
    );
    expect(started.status).toBe(303);
    const path = started.headers.get("location")!;
    const waiting = await page(server, path, who.cookie);
    const testEmail = /Waiting for the message at <code>([^<]+)<\/code>/.exec(waiting.text)?.[1];
    expect(testEmail).toMatch(/@/);
    expect(waiting.text).toContain("Waiting: this page updates itself when the job settles.");
    expect(waiting.text).toContain(`Send it to <code>${testEmail}</code>`);
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "shop@trailhead.example",
        to: testEmail,
        subject: "Spring sale",
        text: "Hello",
        html: "<p>Hello</p>",
      });
    let shown = waiting;
    for (let i = 0; i < 400 && shown.text.includes("Waiting: this page updates itself"); i++) {
      await Bun.sleep(50);
      shown = await page(server, path, who.cookie);
    }
    expect(shown.text).not.toContain("Waiting: this page updates itself");
    expect(shown.text).toContain("<summary>HTML</summary>");
  });

  test("refused without the CSRF token, or with a subject the planner refuses: the code, nothing charged or created", async () => {
    const who = await person("start-refused");
    const balance = await balanceOf(who.apiKey);
    const events = eventCount(server);
    const forged = await postForm(
      server,
      "/dashboard/jobs",
      { type: "static_html", html: HTML, baseUrl: "https://shop.example/" },
      { cookie: who.cookie },
    );
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF_TOKEN_INVALID");
    const noBase = await postForm(
      server,
      "/dashboard/jobs",
      { _csrf: who.csrfToken, type: "static_html", html: HTML, baseUrl: "" },
      { cookie: who.cookie },
    );
    expect(noBase.status).toBe(400);
    expect(noBase.text).toContain("JOB_SUBJECT_REQUIRED");
    expect(noBase.text).toContain('<details class="start-job" open>');
    expect(await balanceOf(who.apiKey)).toBe(balance);
    expect(eventCount(server)).toBe(events);
  });
});

test("in real Chromium at 375 px: the form is usable on a phone and lands on the job's decision", async () => {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
  const who = await person("start-browser");
  const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    const [name, value] = who.cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.baseUrl }]);
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}/dashboard/jobs`);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await tab.getByLabel("HTML", { exact: true }).fill(HTML);
    await tab.getByLabel("The address it stands for").fill("https://shop.example/boots");
    await tab.getByRole("button", { name: "Check the HTML" }).click();
    expect(tab.url()).toMatch(/\/dashboard\/jobs\/job_\w+$/);
    expect(await tab.getByRole("region", { name: "Decision" }).textContent()).toMatch(/Pass|Blocked/);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  } finally {
    await browser.close();
  }
});

test("in real Chromium with JavaScript: an email job's page shows its test address and updates itself when the message comes", async () => {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
  const who = await person("start-live");
  const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [name, value] = who.cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.baseUrl }]);
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}/dashboard/jobs`);
    await tab.getByRole("button", { name: "Get a test address" }).click();
    const testEmail = (await tab.getByRole("region", { name: "Decision" }).locator("code").textContent())!;
    expect(testEmail).toMatch(/@/);
    const jobPage = tab.url();
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "shop@trailhead.example",
        to: testEmail,
        subject: "Hello",
        text: "Hello",
        html: "<p>Hello</p>",
      });
    // No reload by the test: the page's own poll reloads it once the message has been checked.
    await tab.getByText("HTML", { exact: true }).waitFor({ timeout: 60_000 });
    expect(tab.url()).toBe(jobPage);
    expect(await tab.getByText("Waiting: this page updates itself").count()).toBe(0);
  } finally {
    await browser.close();
  }
});
