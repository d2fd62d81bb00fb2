import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/harness";
import { EmailRenderEngine } from "../../src/capture/mail-clients/render";
import { newestVersion, unsupportedFor } from "../../src/capture/mail-clients/caniemail-support";
import { applyConditionalComments, msoCondition } from "../../src/capture/mail-clients/profiles";
import { EMAIL_CLIENTS, findEmailClient } from "../../src/catalog/email-clients";
import { examplesOf } from "../../src/catalog/examples";
import { runEmailFixture, runEmailMessage, verdictAndReason } from "../support/fixture-runs";
import { unreported } from "./support/check-run";

setDefaultTimeout(120_000);

const FIXTURES = join(import.meta.dir, "..", "fixtures", "email-visual");
const CHECKS = [
  "email-layout-not-broken",
  "email-mobile-responsive",
  "email-dark-mode-legible",
  "email-images-off-readable",
  "email-cta-visible",
] as const;

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
}, 120_000);
afterAll(() => server.stop(), 120_000);

const runFixture = (id: string, which: "pass" | "fail", validations?: unknown[]) =>
  runEmailFixture(server, apiKey, "email-visual", id, which, validations);

describe("visual email checks: fixtures delivered over SMTP, rendered in the native clients", () => {
  for (const id of CHECKS) {
    for (const which of ["pass", "fail"] as const) {
      test(`${id}: ${which}.eml gets ${which}, as the catalog's example records`, async () => {
        const done = await runFixture(id, which);
        expect(done.status).toBe("completed");
        const result = done.results.find((r: any) => r.validationId === id);
        if (result.verdict !== which)
          throw new Error(`expected ${which}, got ${result.verdict}: ${result.reason ?? result.reasoning}`);
        expect(verdictAndReason(result)).toEqual(verdictAndReason(examplesOf(id)?.[which]));
        if (which === "fail") {
          expect(result.reason.length).toBeGreaterThan(20);
          // The fixture's defect, not some other one: expected.json names what the fail run must report.
          const { mustReport } = JSON.parse(readFileSync(join(FIXTURES, id, "expected.json"), "utf8"));
          expect(mustReport.length).toBeGreaterThan(0);
          expect(unreported(result.findings, mustReport)).toEqual([]);
        }
        // Every render is a stored capture, fetched with the same key as any web screenshot.
        expect(result.screenshotUrl).toContain(`/api/captures/${done.jobId}-`);
        expect(result.captures.length).toBeGreaterThan(0);
        const image = await fetch(result.screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
        expect(image.status).toBe(200);
        expect(image.headers.get("content-type")).toBe("image/jpeg");
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
        expect(done.credits.refunded).toBe(0);
      });
    }
  }

  test("the default renders: each standard form factor's native client, priced one credit per render", async () => {
    const done = await runFixture("email-cta-visible", "pass");
    const result = done.results[0];
    expect(result.captures.map((c: any) => c.viewport).sort()).toEqual(["desktop-md", "mobile-sm"]);
    expect(result.screenshotUrl).toMatch(/-(apple-mail-ios-mobile-sm|apple-mail-desktop-md)\.jpg$/);
    expect(done.credits.charged).toBe(2);
  });

  test("dark-mode-legible renders the dark variant of the native client", async () => {
    const done = await runFixture("email-dark-mode-legible", "fail");
    expect(done.results[0].screenshotUrl).toMatch(/-apple-mail-ios-dark-mobile-sm\.jpg$/);
    expect(done.results[0].findings.some((f: any) => f.measured?.client === "apple-mail-ios-dark")).toBe(true);
  });

  test("Apple Mail in dark mode decides from the message alone: light cells and default text are shown light, not white on white", async () => {
    const done = await runEmailMessage(
      server,
      apiKey,
      readFileSync(join(FIXTURES, "apple-mail-dark-decision", "light-cells.eml")),
      ["email-dark-mode-legible"],
    );
    const result = done.results[0];
    expect({ verdict: result.verdict, reason: result.reason ?? null }).toEqual({ verdict: "pass", reason: null });
  });
});

test("each dark render says how it was made, and the reason tells the sender which to fix: the colour, or colours that survive a forced inversion", async () => {
  // Black on yellow reads in light mode; the Gmail iPhone app's full inversion turns the text white on the same
  // yellow. The grey footer is as faint in light mode as in dark: its colour is what to fix.
  const done = await runEmailMessage(
    server,
    apiKey,
    readFileSync(join(FIXTURES, "dark-mode-causes", "yellow-banner.eml")),
    [{ id: "email-dark-mode-legible", clients: { "mobile-sm": ["gmail-ios", "apple-mail-ios"] } }],
  );
  const result = done.results[0];
  expect(result.verdict).toBe("fail");
  const at = (client: string, text: string) =>
    result.findings.find((f: any) => f.measured?.client === client && f.text.startsWith(text))?.measured;
  expect(at("gmail-ios-dark", "The sale ends")).toMatchObject({
    darkMode: "forced-inversion",
    extent: "full",
    cause: "forced-inversion",
  });
  expect(at("gmail-ios-dark", "The sale ends").lightContrast).toBeGreaterThan(10);
  expect(at("gmail-ios-dark", "Trailhead Outdoor")).toMatchObject({ cause: "colour" });
  expect(at("apple-mail-ios-dark", "Trailhead Outdoor")).toMatchObject({
    darkMode: "prefers-color-scheme",
    cause: "colour",
  });
  // Apple Mail leaves a message with its own colours and no dark declaration light: the headline reads there.
  expect(at("apple-mail-ios-dark", "The sale ends")).toBeUndefined();
  expect(result.reason).toContain("as unreadable in light mode as in dark");
  expect(result.reason).toContain("Gmail (iPhone app), dark mode's forced colour inversion");
  expect(result.reason).not.toContain("prefers-color-scheme: dark) block");
  expect(result.reasoning).toContain("(forced inversion, full)");
  expect(result.reasoning).toContain("(its prefers-color-scheme styles, shown light)");
});

test("the verbose result lists beside each render what its client did, with the rule, its source and the line", async () => {
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en"><head><style>.card { border-radius: 8px; }</style></head><body>',
    '<table role="presentation"><tr><td class="card">',
    '<a class="cta" href="https://shop.example/sale" style="display:inline-block; padding:12px 24px; background:#0a7; color:#fff;">Shop the sale</a>',
    "</td></tr></table></body></html>",
  ].join("\n");
  const raw = Buffer.from(
    [
      'From: "Trailhead" <offers@trailhead.example>',
      "To: <qa@inbox.assay.localhost>",
      "Subject: Spring sale",
      "Message-ID: <render-changes@trailhead.example>",
      "MIME-Version: 1.0",
      "Content-Type: text/html; charset=utf-8",
      "",
      html,
    ].join("\r\n"),
  );
  const done = await runEmailMessage(server, apiKey, raw, [
    { id: "email-cta-visible", clients: { "desktop-md": ["outlook-windows", "apple-mail"] } },
  ]);
  const result = done.results[0];
  const word = result.renders.find((r: any) => r.clientId === "outlook-windows");
  expect(word).toMatchObject({ formFactor: "desktop-md", changesOmitted: 0 });
  expect(word.screenshotUrl).toEndWith(`${done.jobId}-outlook-windows-desktop-md.jpg`);
  expect(word.changes).toContainEqual(
    expect.objectContaining({
      action: "declaration-removed",
      target: "padding: 12px 24px",
      selector: "a.cta",
      line: 4,
      source: "word-engine",
    }),
  );
  expect(word.changes).toContainEqual(
    expect.objectContaining({ target: "border-radius: 8px", selector: ".card", line: 2, source: "caniemail" }),
  );
  expect(word.sources["word-engine"].url).toContain("learn.microsoft.com");
  expect(word.sources.caniemail.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const apple = result.renders.find((r: any) => r.clientId === "apple-mail");
  expect(apple.changes).toEqual([]);
  const brief = await server.api("GET", `/api/jobs?jobId=${done.jobId}`, { key: apiKey });
  expect(brief.body.jobs[0].results[0].renders).toBeUndefined();
});

describe("clients on a visual email check", () => {
  test("named clients are rendered and priced per render; an extra-credit client costs one more", async () => {
    const clients = { "mobile-sm": ["gmail-android", "samsung-mail"], "desktop-md": [] as string[] };
    const estimate = await server.api("POST", "/api/jobs/estimate", {
      key: apiKey,
      body: { type: "email", validations: [{ id: "email-mobile-responsive", clients }] },
    });
    expect(estimate.status).toBe(200);
    // gmail-android 1, samsung-mail 1 + 1 extra, apple-mail (desktop native) 1.
    expect(estimate.body.lines).toEqual([{ validationId: "email-mobile-responsive", credits: 4 }]);
    const done = await runFixture("email-mobile-responsive", "fail", [{ id: "email-mobile-responsive", clients }]);
    const result = done.results[0];
    expect(result.verdict).toBe("fail");
    const keys = result.captures.map((c: any) => c.screenshotUrl.split("/").pop());
    expect(keys.sort()).toEqual(
      [
        `${done.jobId}-apple-mail-desktop-md.jpg`,
        `${done.jobId}-gmail-android-mobile-sm.jpg`,
        `${done.jobId}-samsung-mail-mobile-sm.jpg`,
      ].sort(),
    );
    // The 640px table overflows both phones; at the desktop pane it fits.
    const wide = result.findings.filter((f: any) => /wide on a/.test(f.message)).map((f: any) => f.measured.client);
    expect(wide.sort()).toEqual(["gmail-android", "samsung-mail"]);
    expect(done.credits).toEqual({ charged: 4, refunded: 0, net: 4 });
  });

  test("a client that fails to render is refunded and named, not dropped", async () => {
    const original = EmailRenderEngine.prototype.render;
    EmailRenderEngine.prototype.render = async function (message, target, lane) {
      if (target.client.id === "outlook-windows")
        return {
          ok: false,
          client: target.client,
          formFactor: target.formFactor,
          label: `${target.client.id}-${target.formFactor}`,
          error: "simulated crash",
        };
      return original.call(this, message, target, lane);
    };
    try {
      const clients = { "desktop-md": ["apple-mail", "outlook-windows"] };
      const done = await runFixture("email-layout-not-broken", "pass", [{ id: "email-layout-not-broken", clients }]);
      const result = done.results[0];
      expect(result.verdict).toBe("pass");
      expect(result.captures.length).toBe(1);
      const named = result.findings.find((f: any) => f.measured?.client === "outlook-windows");
      expect(named.message).toContain("could not be rendered");
      // apple-mail 1 credit, outlook-windows 2 (extra-credit): the failed render's 2 come back.
      expect(done.credits).toEqual({ charged: 3, refunded: 2, net: 1 });

      // Every client of a check failing: an error row, refunded in full.
      const all = await runFixture("email-layout-not-broken", "pass", [
        { id: "email-layout-not-broken", clients: { "desktop-md": ["outlook-windows"] } },
      ]);
      expect(all.results[0].verdict).toBe("error");
      expect(all.results[0].reason).toContain("Outlook for Windows");
      expect(all.credits).toEqual({ charged: 2, refunded: 2, net: 0 });
    } finally {
      EmailRenderEngine.prototype.render = original;
    }
  });

  test("one render serves every check that asks for it; functional checks run beside the visual ones", async () => {
    const done = await runFixture("email-cta-visible", "fail", [
      "email-cta-visible",
      "email-layout-not-broken",
      "email-subject-length",
    ]);
    expect(done.results.map((r: any) => [r.validationId, r.verdict])).toEqual([
      ["email-cta-visible", "fail"],
      ["email-layout-not-broken", "pass"],
      ["email-subject-length", "pass"],
    ]);
    expect(done.results[0].captures.map((c: any) => c.screenshotUrl)).toEqual(
      done.results[1].captures.map((c: any) => c.screenshotUrl),
    );
  });
});

describe("GET /api/email-clients", () => {
  test("needs a key", async () => {
    const res = await server.api("GET", "/api/email-clients");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("AUTH_REQUIRED");
  });

  test("the catalog keyed by form factor and client id, with native defaults, plan inclusion and extra-credit flags", async () => {
    const res = await server.api("GET", "/api/email-clients", { key: apiKey });
    expect(res.status).toBe(200);
    const ff = res.body.formFactors;
    expect(Object.keys(ff)).toEqual(["mobile-sm", "tablet-portrait", "desktop-md"]);
    for (const id of [
      "apple-mail",
      "gmail-web",
      "outlook-web",
      "outlook-windows",
      "yahoo-web",
      "thunderbird",
      "apple-mail-dark",
      "outlook-web-dark",
    ])
      expect(ff["desktop-md"].clients[id]).toBeDefined();
    for (const id of [
      "apple-mail-ios",
      "gmail-ios",
      "gmail-android",
      "outlook-ios",
      "samsung-mail",
      "apple-mail-ios-dark",
      "gmail-android-dark",
    ])
      expect(ff["mobile-sm"].clients[id]).toBeDefined();
    for (const id of ["apple-mail-ipados", "gmail-ipados"]) expect(ff["tablet-portrait"].clients[id]).toBeDefined();
    expect(ff["desktop-md"].nativeDefault).toBe("apple-mail");
    expect(ff["mobile-sm"].nativeDefault).toBe("apple-mail-ios");
    expect(ff["tablet-portrait"].nativeDefault).toBe("apple-mail-ipados");
    const windows = ff["desktop-md"].clients["outlook-windows"];
    expect(windows).toMatchObject({
      id: "outlook-windows",
      nativeDefault: false,
      planIncluded: true,
      extraCredits: true,
      creditsPerRender: 2,
    });
    expect(windows.engine).toContain("Word");
    expect(ff["mobile-sm"].clients["apple-mail-ios"]).toMatchObject({
      nativeDefault: true,
      extraCredits: false,
      darkVariant: "apple-mail-ios-dark",
    });
    expect(ff["mobile-sm"].clients["gmail-android-dark"]).toMatchObject({
      colorScheme: "dark",
      darkMode: "partial-invert",
      darkMethod: { method: "forced-inversion", extent: "partial" },
      lightVariant: "gmail-android",
    });
  });
});

describe("emulation profiles", () => {
  test("caniemail support is read at the newest tested version in real version order", () => {
    expect(newestVersion({ "5.1": "a", "6.1": "a", "10.3": "y", "12.2": "y" })).toBe("12.2");
    expect(newestVersion({ "60.3": "y", "78.5": "n", "102.11": "n" })).toBe("102.11");
    expect(newestVersion({ "2024-04": "y", "2024-01": "n" })).toBe("2024-04");
    expect(newestVersion({ "2016": "y", "16.50": "y", "16.80": "a" })).toBe("16.80");
    // Outlook for Windows: no border-radius, no flex, no media queries; Apple Mail keeps them.
    const word = unsupportedFor(["outlook.windows"]);
    expect(word.properties["border-radius"]).toContain("outlook.windows 2019");
    expect(word.atRules.media).toBeDefined();
    expect(unsupportedFor(["apple-mail.ios"]).properties["border-radius"]).toBeUndefined();
  });

  test("Outlook for Windows' conditional comments", () => {
    expect(msoCondition("mso")).toBe(true);
    expect(msoCondition("!mso")).toBe(false);
    expect(msoCondition("gte mso 9")).toBe(true);
    expect(msoCondition("lt mso 12")).toBe(false);
    expect(msoCondition("(mso)|(IE)")).toBe(true);
    const { html } = applyConditionalComments(
      "<p>a</p><!--[if mso]><p>word</p><![endif]--><!--[if !mso]><!--><p>web</p><!--<![endif]-->",
    );
    expect(html).toBe("<p>a</p><p>word</p>");
    const settings = applyConditionalComments(
      "<!--[if mso]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><style>p{}</style><![endif]-->",
    );
    expect(settings.html).toBe("<style>p{}</style>");
  });

  test("each client's sanitizer: Gmail drops body styles and prefixes classes, Word renders mso blocks and drops max-width", async () => {
    const engine = new EmailRenderEngine(server.assay.pool);
    const html = `<!DOCTYPE html><html><head><style>.wide { max-width: 300px; border-radius: 8px; } @media (max-width: 600px) { .wide { color: red } }</style></head>
<body><style>.late { color: red }</style><div class="wide">Hello</div><!--[if mso]><p id="word">Word only</p><![endif]--></body></html>`;
    const gmail = await engine.render(
      { html, text: null },
      { client: findEmailClient("desktop-md", "gmail-web")!, formFactor: "desktop-md" },
    );
    const word = await engine.render(
      { html, text: null },
      { client: findEmailClient("desktop-md", "outlook-windows")!, formFactor: "desktop-md" },
    );
    const apple = await engine.render(
      { html, text: null },
      { client: findEmailClient("desktop-md", "apple-mail")!, formFactor: "desktop-md" },
    );
    if (!gmail.ok || !word.ok || !apple.ok) throw new Error("a render failed");
    expect(gmail.render.notes.join("\n")).toContain("removed <style> blocks inside <body>");
    expect(gmail.render.notes.join("\n")).toContain("class names prefixed with m_");
    expect(word.render.notes.join("\n")).toContain("removed border-radius");
    expect(word.render.notes.join("\n")).toContain("removed media queries");
    expect(word.render.snapshot.textBlocks.map((t) => t.text)).toContain("Word only");
    expect(apple.render.snapshot.textBlocks.map((t) => t.text)).not.toContain("Word only");
    // Every client of the catalog renders the same message.
    for (const [formFactor, list] of Object.entries(EMAIL_CLIENTS)) {
      for (const client of list) {
        const r = await engine.render({ html, text: null }, { client, formFactor: formFactor as any });
        if (!r.ok) throw new Error(`${client.id}: ${r.error}`);
        expect(r.render.layout.viewport.width).toBe(client.width);
      }
    }
  });
});
