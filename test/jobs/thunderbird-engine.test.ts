import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodedScreenshot } from "../../src/capture/screenshot-codec";
import { startServer, type TestServer } from "../support/harness";
import { runEmailMessage } from "../support/fixture-runs";

/**
 * Thunderbird's renders laid out in Gecko (Debian's firefox-esr over WebDriver BiDi, the page's scripts off, nothing
 * fetched) for email jobs, and the Chromium emulation, saying so, where Gecko is not offered; docs/engines.md,
 * "Thunderbird in Gecko".
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

/**
 * A red box reflected below itself where the engine is Chromium: -webkit-box-reflect is Blink's and WebKit's, not
 * Gecko's (a Gecko-only declaration would not do: the profile's stylesheet passes through Chromium's CSSOM, which
 * drops what Chromium does not know). Tall enough for a full-page screenshot past the client's viewport.
 */
const MESSAGE_HTML = `<!doctype html><html><head><style>
  body { margin: 0; background: rgb(255, 255, 255); }
  .box { width: 200px; height: 100px; background: rgb(200, 0, 0); -webkit-box-reflect: below 0px; }
  </style></head><body><div class="box"></div><div style="height: 1400px"></div></body></html>`;

const isRed = ([r, g, b]: number[]) => r! > 150 && g! < 60 && b! < 60;
const isWhite = (rgb: number[]) => rgb.every((c) => c > 230);

async function renderedMessage(s: TestServer) {
  const { apiKey } = await s.signup();
  const raw = Buffer.from(
    `From: Trailhead <news@trailhead.example>\r\nTo: reader@example.com\r\nSubject: Spring sale\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${MESSAGE_HTML}\r\n`,
  );
  const job = await runEmailMessage(s, apiKey, raw, [
    { id: "email-layout-not-broken", clients: { "desktop-md": ["thunderbird", "gmail-web"] } },
  ]);
  return { job, apiKey };
}

async function pixelAt(apiKey: string, url: string, x: number, y: number) {
  const shot = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const image = decodedScreenshot({ contentType: "image/jpeg", data: new Uint8Array(await shot.arrayBuffer()) });
  const i = (y * image.width + x) * 4;
  return { image, rgb: [...image.data.slice(i, i + 3)] };
}

describe("Thunderbird renders in Gecko", () => {
  test("the Thunderbird profile's render is laid out in Gecko (its screenshot Gecko's, full page); Gmail's stays in Chromium", async () => {
    const { job, apiKey } = await renderedMessage(server);
    expect(job.status).toBe("completed");
    const renders = job.results[0].renders;
    const thunderbird = renders.find((r: any) => r.clientId === "thunderbird");
    const gmail = renders.find((r: any) => r.clientId === "gmail-web");
    expect(thunderbird).toMatchObject({ engine: "gecko", formFactor: "desktop-md" });
    expect(thunderbird.engineNote).toBeUndefined();
    expect(gmail).toMatchObject({ engine: "chromium" });
    const box = await pixelAt(apiKey, thunderbird.screenshotUrl, 100, 50);
    expect(box.image.height).toBeGreaterThan(1400);
    expect(isRed(box.rgb)).toBe(true);
    // No reflection: Gecko laid it out.
    expect(isWhite((await pixelAt(apiKey, thunderbird.screenshotUrl, 100, 150)).rgb)).toBe(true);
  });

  test("where Gecko is not offered (ASSAY_GECKO_OFF), the Thunderbird render stays in Chromium and says so", async () => {
    const off = await startServer({ ASSAY_GECKO_OFF: "1" });
    try {
      const { job, apiKey } = await renderedMessage(off);
      expect(job.status).toBe("completed");
      const thunderbird = job.results[0].renders.find((r: any) => r.clientId === "thunderbird");
      expect(thunderbird.engine).toBe("chromium");
      expect(thunderbird.engineNote).toBe(
        "rendered in Chromium, emulating Gecko: Gecko is not available here (ASSAY_GECKO_OFF is set)",
      );
      // The control: the same profile's render in Chromium paints the reflection.
      expect(isRed((await pixelAt(apiKey, thunderbird.screenshotUrl, 100, 150)).rgb)).toBe(true);
    } finally {
      await off.stop();
    }
  });
});
