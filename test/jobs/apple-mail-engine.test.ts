import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodedScreenshot } from "../../src/capture/screenshot-codec";
import { startServer, type TestServer } from "../support/harness";
import { runEmailMessage } from "../support/fixture-runs";

/**
 * Apple Mail's renders laid out in WebKit (WebKitGTK through WebKitWebDriver under Xvfb) for email jobs on a server
 * that turns it on (ASSAY_APPLE_MAIL_IN_WEBKIT), and the Chromium emulation, saying so, where WebKit is not offered
 * or not turned on; docs/engines.md, "Apple Mail in WebKit".
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ ASSAY_APPLE_MAIL_IN_WEBKIT: "1" });
});
afterAll(() => server?.stop());

describe("Apple Mail renders in WebKit", () => {
  /** Red only where the engine is WebKit: hanging-punctuation is WebKit's alone. */
  const MESSAGE_HTML = `<!doctype html><html><head><style>
    body { margin: 0; background: rgb(255, 255, 255); }
    @supports (hanging-punctuation: first) { body { background: rgb(200, 0, 0); } }
    </style></head><body><p>Spring sale</p><div style="height: 900px"></div></body></html>`;

  async function renderedMessage(s: TestServer) {
    const { apiKey } = await s.signup();
    const raw = Buffer.from(
      `From: Trailhead <news@trailhead.example>\r\nTo: reader@example.com\r\nSubject: Spring sale\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${MESSAGE_HTML}\r\n`,
    );
    const job = await runEmailMessage(s, apiKey, raw, [
      { id: "email-layout-not-broken", clients: { "mobile-sm": ["apple-mail-ios"], "desktop-md": ["gmail-web"] } },
    ]);
    return { job, apiKey };
  }

  test("the Apple Mail profile's render is laid out in WebKit (its screenshot WebKit's); Gmail's stays in Chromium", async () => {
    const { job, apiKey } = await renderedMessage(server);
    expect(job.status).toBe("completed");
    const renders = job.results[0].renders;
    const apple = renders.find((r: any) => r.clientId === "apple-mail-ios");
    const gmail = renders.find((r: any) => r.clientId === "gmail-web");
    expect(apple).toMatchObject({ engine: "webkit", formFactor: "mobile-sm" });
    expect(apple.engineNote).toBeUndefined();
    expect(gmail).toMatchObject({ engine: "chromium" });
    const shot = await fetch(apple.screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    const image = decodedScreenshot({ contentType: "image/jpeg", data: new Uint8Array(await shot.arrayBuffer()) });
    // A full-page screenshot at the client's width, red where WebKit laid the message out.
    expect(image.width).toBe(375);
    expect(image.height).toBeGreaterThan(900);
    const i = (400 * image.width + 180) * 4;
    const [r, g, b] = image.data.slice(i, i + 3);
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
  });

  test("where WebKit is not offered, the Apple Mail render stays in Chromium and says so", async () => {
    const off = await startServer({ ASSAY_APPLE_MAIL_IN_WEBKIT: "1", ASSAY_WEBKIT_OFF: "1" });
    try {
      const { job, apiKey } = await renderedMessage(off);
      expect(job.status).toBe("completed");
      const apple = job.results[0].renders.find((r: any) => r.clientId === "apple-mail-ios");
      expect(apple.engine).toBe("chromium");
      expect(apple.engineNote).toBe(
        "rendered in Chromium, emulating WebKit: WebKit is not available here (ASSAY_WEBKIT_OFF is set)",
      );
      // The control: the same profile's render in Chromium leaves the message white (no hanging-punctuation there).
      const shot = await fetch(apple.screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
      const image = decodedScreenshot({ contentType: "image/jpeg", data: new Uint8Array(await shot.arrayBuffer()) });
      const i = (400 * image.width + 180) * 4;
      expect([...image.data.slice(i, i + 3)].every((c) => c > 230)).toBe(true);
    } finally {
      await off.stop();
    }
  });

  test("by default (ASSAY_APPLE_MAIL_IN_WEBKIT unset) the Apple Mail render stays in Chromium and says how to turn WebKit on", async () => {
    const byDefault = await startServer();
    try {
      const { job } = await renderedMessage(byDefault);
      const apple = job.results[0].renders.find((r: any) => r.clientId === "apple-mail-ios");
      expect(apple.engine).toBe("chromium");
      expect(apple.engineNote).toBe(
        "rendered in Chromium, emulating WebKit: Apple Mail in WebKit is off on this server (ASSAY_APPLE_MAIL_IN_WEBKIT=1 turns it on)",
      );
    } finally {
      await byDefault.stop();
    }
  });
});
