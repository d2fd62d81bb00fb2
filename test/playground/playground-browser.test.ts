import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chromium, type Browser, type Page, type Response } from "playwright-core";
import { startServer, type TestServer } from "../support/harness";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";

/**
 * The playground as a visitor uses it, in real Chromium with JavaScript off: from the site's header to the form, a
 * pasted page's verdicts with their reasons and the screenshot, then runs until the session cap and the address
 * limit each answer their code on the page (1 run per session, 2 per address).
 */
setDefaultTimeout(120_000);

const TWO_H1 =
  "<!doctype html><html lang=en><head><title>Two headings</title></head><body><h1>One</h1><h1>Two</h1></body></html>";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ ASSAY_PLAYGROUND_RUNS_PER_SESSION: "1", ASSAY_PLAYGROUND_RUNS_PER_ADDRESS: "2" });
  browser = await chromium.launch({
    executablePath: findChromium(process.env.CHROMIUM_PATH),
    headless: true,
    args: BASE_CHROMIUM_ARGS,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 120_000);

/**
 * Clicks a form's button and answers the response to its POST once the document it returns has loaded. The load
 * event is awaited from before the click: waitForLoadState after the response could still see the form's own
 * document, already loaded, and read it while it is being replaced.
 */
async function submit(tab: Page, button: string): Promise<Response> {
  const [posted] = await Promise.all([
    tab.waitForResponse((r) => r.request().method() === "POST" && r.url() === `${server.baseUrl}/playground`),
    tab.waitForEvent("load"),
    tab.getByRole("button", { name: button }).click(),
  ]);
  return posted;
}

/** Pastes the page into the HTML form and sends it; answers the response to the form's POST. */
async function pasteAndCheck(tab: Page): Promise<Response> {
  await tab.goto(`${server.baseUrl}/playground`);
  await tab.getByLabel("The HTML").fill(TWO_H1);
  return submit(tab, "Check this HTML");
}

test("a visitor checks pasted HTML from the page, then runs until each limit answers its code", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const tab = await context.newPage();

  // The site's header leads to the playground.
  await tab.goto(`${server.baseUrl}/signin`);
  await tab.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Playground" }).click();
  expect(new URL(tab.url()).pathname).toBe("/playground");

  // A loopback address is refused on the page, and what was typed stays.
  await tab.getByLabel("Its address").fill(`${server.baseUrl}/`);
  const refusedUrl = await submit(tab, "Check this page");
  expect(refusedUrl.status()).toBe(400);
  await expect(tab.getByRole("alert").textContent()).resolves.toContain("PLAYGROUND_INVALID_URL");
  await expect(tab.getByLabel("Its address").inputValue()).resolves.toBe(`${server.baseUrl}/`);

  // The first run: its verdicts with their reasons, the screenshot, and the invitation to sign up.
  expect((await pasteAndCheck(tab)).status()).toBe(303);
  expect(new URL(tab.url()).pathname).toMatch(/^\/playground\/runs\/pgr_\w+$/);
  const singleH1 = tab.locator("#result-single-h1");
  await expect(singleH1.locator("td").nth(1).textContent()).resolves.toBe("fail");
  await expect(singleH1.locator("td").nth(2).textContent()).resolves.toContain("<h1>");
  await expect(tab.locator("#result-page-title td").nth(1).textContent()).resolves.toBe("pass");
  // The screenshot is shown (decoded by the page) and is a JPEG served to this visitor's session. Read directly, not
  // from a response listener: Playwright's client can receive an event naming a request it already let go of.
  const shot = tab.getByRole("img", { name: "The page as captured at desktop-md" });
  await expect(shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
  const served = await context.request.get(new URL((await shot.getAttribute("src"))!, tab.url()).href);
  expect([served.status(), served.headers()["content-type"]]).toEqual([200, "image/jpeg"]);
  await expect(tab.getByRole("link", { name: "Sign up for the full catalog" }).getAttribute("href")).resolves.toBe(
    "/signin",
  );

  // The session's one run is used: the page answers the session cap.
  const capped = await pasteAndCheck(tab);
  expect(capped.status()).toBe(429);
  await expect(tab.getByRole("alert").textContent()).resolves.toStartWith("PLAYGROUND_LIMIT_REACHED: ");

  // A visitor who clears the cookie gets a new session: the address's second run.
  await context.clearCookies();
  expect((await pasteAndCheck(tab)).status()).toBe(303);
  expect(new URL(tab.url()).pathname).toMatch(/^\/playground\/runs\/pgr_\w+$/);

  // Clearing it again does not escape the address limit: the page answers it, with Retry-After.
  await context.clearCookies();
  const limited = await pasteAndCheck(tab);
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  await expect(tab.getByRole("alert").textContent()).resolves.toStartWith("PLAYGROUND_RATE_LIMITED: ");
  await expect(tab.getByLabel("The HTML").inputValue()).resolves.toBe(TWO_H1);

  // A run that is not kept answers its code on the run page.
  const missing = await tab.goto(`${server.baseUrl}/playground/runs/pgr_unknown`);
  expect(missing!.status()).toBe(404);
  await expect(tab.getByRole("alert").textContent()).resolves.toStartWith("PLAYGROUND_RUN_NOT_FOUND: ");
  await context.close();
});
