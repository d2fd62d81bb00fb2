import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";

/**
 * Chromium as a person's browser on the dashboard (test/dashboard/ widths and render change lists): launched once
 * per file, and a tab at a width signed in with a session's cookie, JavaScript off.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
  return chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
}

/** A fresh context at `width` × 800 px holding the session cookie for `baseUrl`, and its tab. */
export async function signedInTab(
  browser: Browser,
  baseUrl: string,
  cookie: string,
  width: number,
): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
  const [name, value] = cookie.split("=") as [string, string];
  await context.addCookies([{ name, value, url: baseUrl }]);
  return { context, tab: await context.newPage() };
}
