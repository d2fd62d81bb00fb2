import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { validationModules } from "../../src/catalog/registry";
import { startServer, type TestServer } from "../support/harness";

/**
 * A visitor in real Chromium: the index filtered by subject and kind with plain links, searched without JavaScript
 * (the server filters ?q=) and with it (the list filters in place), a record's links followed to its standard and
 * custom pages, and the 404 page of a custom page that does not exist.
 */

setDefaultTimeout(120_000);
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
  browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await server.stop();
});

const visibleChecks = (tab: import("playwright-core").Page) =>
  tab.locator("tr[data-check]:visible").evaluateAll((rows) => rows.map((r) => r.querySelector("a")!.textContent));
const names = (filter: (m: (typeof validationModules)[number]) => boolean) =>
  validationModules.filter(filter).map((m) => m.meta.name);

test("without JavaScript: filter by subject, then kind, with links; search asks the server", async () => {
  const tab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await tab.goto(`${server.baseUrl}/validations`);
  expect(await tab.title()).toBe("The check catalog · Assay");
  expect((await visibleChecks(tab)).sort()).toEqual(names(() => true).sort());
  await tab.getByRole("link", { name: "Emails", exact: true }).click();
  expect(new URL(tab.url()).search).toBe("?subject=email");
  expect((await visibleChecks(tab)).sort()).toEqual(names((m) => m.meta.subjectType === "email").sort());
  await tab.getByRole("link", { name: "Visual", exact: true }).click();
  expect(new URL(tab.url()).search).toBe("?subject=email&kind=visual");
  expect((await visibleChecks(tab)).sort()).toEqual(
    names((m) => m.meta.subjectType === "email" && m.meta.kind === "visual").sort(),
  );
  expect(await tab.getByRole("link", { name: "Visual", exact: true }).getAttribute("aria-current")).toBe("page");
  await tab.getByRole("link", { name: "All", exact: true }).first().click();
  expect(new URL(tab.url()).search).toBe("?kind=visual");
  await tab.getByLabel("Search the checks").fill("contrast");
  await tab.getByRole("button", { name: "Search" }).click();
  expect(new URL(tab.url()).searchParams.get("q")).toBe("contrast");
  expect(new URL(tab.url()).searchParams.get("kind")).toBe("visual");
  await tab.getByRole("link", { name: "All", exact: true }).last().click();
  expect(await visibleChecks(tab)).toContain("Text contrast (WCAG AA)");
  expect(await visibleChecks(tab)).not.toContain("Page title");
});

test("with JavaScript: the search box filters the list in place", async () => {
  const tab = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  tab.on("pageerror", (e) => errors.push(e.message));
  await tab.goto(`${server.baseUrl}/validations`);
  await tab.getByLabel("Search the checks").fill("unsubscribe");
  expect(new URL(tab.url()).search).toBe("");
  const shown = await visibleChecks(tab);
  expect(shown).toContain("One-click unsubscribe (RFC 8058)");
  expect(shown.length).toBeLessThan(10);
  expect(await tab.locator("#check-count").textContent()).toBe(`${shown.length} checks`);
  // A group with no match is hidden, heading and all.
  expect(await tab.getByRole("heading", { name: "Webpages" }).isVisible()).toBe(false);
  await tab.getByLabel("Search the checks").fill("");
  expect((await visibleChecks(tab)).length).toBe(validationModules.length);
  expect(errors).toEqual([]);
});

test("a record's links lead to its standard and custom pages; a check without parameters has no custom page", async () => {
  const record = (await server.api("GET", "/api/validations/spelling")).body;
  const tab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  expect((await tab.goto(record.links.standard))!.status()).toBe(200);
  expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Spelling");
  expect(await tab.getByRole("heading", { name: "A failing example" }).isVisible()).toBe(true);
  expect(await tab.locator("strong.fail").textContent()).toBe("fail");
  await tab.getByRole("link", { name: "Custom parameters of Spelling" }).click();
  expect(tab.url()).toBe(record.links.custom);
  expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Spelling: custom parameters");
  expect(await tab.getByRole("heading", { name: "allowedWords", exact: true }).isVisible()).toBe(true);

  const plain = (await server.api("GET", "/api/validations/page-title")).body;
  expect(plain.links.custom).toBeUndefined();
  const missing = await tab.goto(`${server.baseUrl}/validations/page-title/custom`);
  expect(missing!.status()).toBe(404);
  expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Not found");
  await tab.getByRole("link", { name: "Browse every check" }).click();
  expect(new URL(tab.url()).pathname).toBe("/validations");
});
