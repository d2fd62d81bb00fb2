import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchChromium, signedInTab } from "../support/dashboard-browser";
import { uniqueEmail, type TestServer } from "../support/harness";
import { type MailRelay, signIn, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { runEmailMessage } from "../support/fixture-runs";
import { page } from "../support/pages";
import { findSet } from "../../src/catalog/sets";

/**
 * The job page of an email job, in Chromium at 375 and 1280 px: beside each render's screenshot, what the client's
 * profile did to the message, grouped by the source of the rule (the source linked), each change with its rule, the
 * first few shown and the rest collapsed; how a dark render was darkened; and nothing wider than the screen.
 */
setDefaultTimeout(180_000);
let server: TestServer;
let stopServer: () => Promise<void>;
let browser: Browser;
let who: SignedIn;
let jobId: string;
let apiKey: string;

const HTML = [
  "<!DOCTYPE html>",
  '<html lang="en"><head><style>',
  ".card { border-radius: 8px; box-shadow: 0 1px 2px #999; float: left; }",
  ".hero { background-image: linear-gradient(#fff, #eee); position: relative; }",
  "@media (max-width: 600px) { .card { width: 100% !important; } }",
  "</style></head><body>",
  '<div class="hero card"><p class="card">Every walking boot is a quarter off until Sunday night.</p>',
  '<a class="cta" href="https://trailhead.example/sale" style="display:inline-block; padding:12px 24px; background:#0a7c55; color:#ffffff; border-radius:4px;">Shop the sale</a></div>',
  "</body></html>",
].join("\n");
const RAW = Buffer.from(
  [
    'From: "Trailhead" <offers@trailhead.example>',
    "To: <qa@inbox.assay.localhost>",
    "Subject: Spring sale",
    "Message-ID: <dashboard-render-changes@trailhead.example>",
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    HTML,
  ].join("\r\n"),
);

beforeAll(async () => {
  let relay: MailRelay;
  // Loopback opened to the checks (as in the self-check), so the page's own screenshots load when it is checked.
  ({ relay, server, stop: stopServer } = await startServerWithRelay({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" }));
  const email = uniqueEmail("render-changes");
  ({ apiKey } = await server.signup(email));
  who = await signIn(server, relay, email);
  const job = await runEmailMessage(server, apiKey, RAW, [
    { id: "email-layout-not-broken", clients: { "desktop-md": ["apple-mail", "outlook-windows"] } },
    { id: "email-dark-mode-legible", clients: { "mobile-sm": ["samsung-mail"] } },
  ]);
  expect(job.status).toBe("completed");
  jobId = job.jobId;
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stopServer?.();
}, 120_000);

for (const width of [375, 1280]) {
  test(`at ${width} px each render's changes sit beside (or under) its screenshot, grouped, linked and collapsed`, async () => {
    const { context, tab } = await signedInTab(browser, server.baseUrl, who.cookie, width);
    try {
      await tab.goto(`${server.baseUrl}/dashboard/jobs/${jobId}`);
      const seen = await tab.evaluate(() => {
        const renders = Array.from(document.querySelectorAll("div.render")).map((render) => {
          const image = render.querySelector("figure img")!.getBoundingClientRect();
          const list = render.querySelector("section.render-changes")!;
          const box = list.getBoundingClientRect();
          return {
            heading: list.querySelector("h3")!.textContent,
            groups: Array.from(list.querySelectorAll(".change-group")).map((g) => ({
              source: g.querySelector("h4")!.textContent!.replace(/ \(\d+\).*$/, ""),
              link: g.querySelector("h4 a")?.getAttribute("href") ?? null,
              shown: g.querySelectorAll(":scope > ul > li").length,
              collapsed: g.querySelectorAll("details li").length,
              open: g.querySelector("details")?.hasAttribute("open") ?? null,
            })),
            text: list.textContent,
            beside: box.left >= image.right,
            under: box.top >= image.bottom,
          };
        });
        return { fits: document.documentElement.scrollWidth <= window.innerWidth, renders };
      });
      expect(seen.fits).toBe(true);
      const word = seen.renders.find((r) => r.heading!.includes("Outlook for Windows"))!;
      expect(word.heading).toBe(
        "What Outlook for Windows, Word engine, 2016–2021/365 classic, light did to the message",
      );
      expect(word.groups.map((g) => g.source)).toEqual(
        expect.arrayContaining(["caniemail", "Microsoft's Word engine support levels"]),
      );
      const microsoft = word.groups.find((g) => g.source === "Microsoft's Word engine support levels")!;
      expect(microsoft.link).toStartWith("https://learn.microsoft.com/");
      const caniemail = word.groups.find((g) => g.source === "caniemail")!;
      expect(caniemail.link).toBe("https://www.caniemail.com/");
      // A source with many changes shows four and folds the rest away.
      expect(caniemail).toMatchObject({ shown: 4, open: false });
      expect(caniemail.collapsed).toBeGreaterThan(0);
      expect(word.text).toContain("Dropped padding: 12px 24px on a.cta, line 8");
      expect(word.text).toContain("padding only on table cells");
      const apple = seen.renders.find((r) => r.heading!.includes("Apple Mail"))!;
      expect(apple.text).toContain("Nothing: the message is shown as sent.");
      const samsung = seen.renders.find((r) => r.heading!.includes("Samsung Email"))!;
      expect(samsung.heading).toContain(", dark did to the message");
      expect(samsung.text).toContain("Dark mode, by forced inversion (full)");
      // Beside the screenshot on a desktop; under it on a phone.
      for (const r of seen.renders) expect(width === 1280 ? r.beside : r.under).toBe(true);
    } finally {
      await context.close();
    }
  });
}

test("the page with its change lists passes the accessibility set at 375 and 1280 px, as the dashboard's self-check runs it", async () => {
  // Only the accessibility set: the page links to the rule sources on the internet and to the raw message behind
  // the session, which this machine's offline, keyless link check cannot follow.
  const shown = await page(server, `/dashboard/jobs/${jobId}`, who.cookie);
  expect(shown.status).toBe(200);
  const job = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: {
      type: "static_html",
      html: shown.text,
      baseUrl: `${server.baseUrl}/dashboard/jobs/${jobId}`,
      validations: findSet("accessibility")!.validationIds,
      captureSizes: ["mobile-sm", "desktop-md"],
    },
  });
  expect({ status: job.status, body: job.status === 200 ? null : job.body }).toEqual({ status: 200, body: null });
  const failing = job.body.results
    .filter((r: { verdict: string }) => r.verdict !== "pass")
    .map((r: { validationId: string; reason?: string }) => [r.validationId, r.reason]);
  expect(failing).toEqual([]);
});
