import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchChromium, signedInTab } from "../support/dashboard-browser";
import { htmlJob, uniqueEmail, type TestServer } from "../support/harness";
import { inSession, signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Every dashboard page as a person sees it in Chromium at 375 px and at 1280 px, with content in its tables (a job,
 * a key, a webhook endpoint with a delivery, a ledger): nothing is wider than the screen, the header is one row
 * (the product, its links and the account; the sections' row below scrolls), no column header wraps at 1280 px, and
 * at 375 px the tables read as cards (their header row hidden, each cell labelled).
 */

setDefaultTimeout(180_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let browser: Browser;
let receiver: WebhookReceiver;
let who: SignedIn;
let jobId: string;
let endpointId: string;

const PAGE = `<!doctype html><html lang="en"><head><title>Boots</title></head><body><h1>Boots</h1><h1>Again</h1>
<a href="https://shop.example/a/very/long/address/that/would/squeeze/a/column/to/a/letter/if/it/could">More</a></body></html>`;

beforeAll(async () => {
  // Loopback opened, as in the self-check, so the webhook endpoint can point at the local receiver.
  ({ relay, server, stop: stopServer } = await startServerWithRelay({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" }));
  const email = uniqueEmail("widths");
  const { apiKey } = await server.signup(email);
  who = await signIn(server, relay, email);
  receiver = startWebhookReceiver();
  const endpoint = await server.api("POST", "/api/webhooks", {
    headers: inSession(who),
    body: { url: receiver.url("/hooks"), events: ["job.completed"], description: "widths" },
  });
  expect(endpoint.status).toBe(201);
  endpointId = endpoint.body.endpointId;
  const job = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(PAGE, ["single-h1", "cta-visible"], {
      baseUrl: "https://shop.example/collections/walking-boots-for-every-season",
    }),
  });
  expect(job.status).toBe(200);
  jobId = job.body.jobId;
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stopServer?.();
  receiver?.stop();
}, 120_000);

const PATHS = () => [
  "/dashboard/jobs",
  `/dashboard/jobs/${jobId}`,
  "/dashboard/credits",
  "/dashboard/keys",
  "/dashboard/members",
  "/dashboard/webhooks",
  `/dashboard/webhooks/${endpointId}`,
  "/dashboard/projects",
];

for (const width of [375, 1280]) {
  test(`at ${width} px every dashboard page fits, its header is one row, and its tables read`, async () => {
    const { context, tab } = await signedInTab(browser, server.baseUrl, who.cookie, width);
    try {
      for (const path of PATHS()) {
        await tab.goto(`${server.baseUrl}${path}`);
        const seen = await tab.evaluate(() => {
          const bar = document.querySelector("header .bar")!.getBoundingClientRect();
          const line = document.querySelector("header .brand")!.getBoundingClientRect().height;
          const heads = Array.from(document.querySelectorAll("thead th")).filter(
            (th) => getComputedStyle(th.closest("thead")!).position !== "absolute",
          );
          const wrapped = heads
            .filter((th) => {
              const range = document.createRange();
              range.selectNodeContents(th);
              return range.getClientRects().length > 1;
            })
            .map((th) => th.textContent);
          return {
            fits: document.documentElement.scrollWidth <= window.innerWidth,
            headerOneRow: bar.height <= line * 1.5,
            wrapped,
            visibleHeaders: heads.length,
          };
        });
        expect({ path, ...seen, visibleHeaders: undefined }).toEqual({
          path,
          fits: true,
          headerOneRow: true,
          wrapped: [],
          visibleHeaders: undefined,
        });
        // At 375 px the tables are cards: no header row shows, and each cell names its column.
        if (width === 375) expect({ path, visibleHeaders: seen.visibleHeaders }).toEqual({ path, visibleHeaders: 0 });
      }
    } finally {
      await context.close();
    }
  });
}
