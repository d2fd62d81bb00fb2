import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/harness";

/**
 * Regression messages for wrong verdicts found on real public emails (issue 14), delivered over real SMTP to an
 * email job that selects the one check, rendered in its standard clients. The messages live beside each visual
 * check's fixtures, in test/fixtures/email-visual/<check id>/regressions/.
 */
setDefaultTimeout(120_000);
const FIXTURES = join(import.meta.dir, "..", "fixtures", "email-visual");

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
}, 120_000);
afterAll(() => server.stop(), 120_000);

/** Delivers a message from FIXTURES (a path under it) to a job that selects one check (an id, or an entry with parameters or clients). */
async function run(entry: string | { id: string; clients?: Record<string, string[]> }, message: string) {
  const check = typeof entry === "string" ? entry : entry.id;
  const created = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: [entry] } });
  expect(created.status).toBe(200);
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: server.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  await transport.sendMail({
    envelope: { from: "offers@trailhead.example", to: [created.body.testEmail] },
    raw: readFileSync(join(FIXTURES, message), "utf8"),
  });
  for (;;) {
    const res = await server.api("GET", `/api/jobs?jobId=${created.body.jobId}&detail=verbose`, { key: apiKey });
    const job = res.body.jobs[0];
    if (job.status !== "pending") return job.results.find((r: { validationId: string }) => r.validationId === check);
    await Bun.sleep(50);
  }
}

test('email-cta-visible: a button coloured on its table with href="#" is the call to action, not the larger social icons', async () => {
  const result = await run("email-cta-visible", "email-cta-visible/regressions/table-button-and-social-icons.eml");
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
  expect(result.reasoning).toContain('The call to action "Shop the sale" (#)');
});

test("email-cta-visible: a link's text contrast is that of the element holding the text (white on green inside a link around a table: 2.4:1)", async () => {
  const result = await run("email-cta-visible", "email-cta-visible/regressions/link-around-table-low-contrast.eml");
  expect(result.verdict).toBe("fail");
  expect(result.reason).toContain('its text "Activate Now!" has 2.4');
});

test("email-cta-visible: a link around a table that holds a second link is read by its text's own colour (white on #0B5073), not the outer link's", async () => {
  const result = await run("email-cta-visible", "email-cta-visible/regressions/nested-link-button.eml");
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
  expect(result.reasoning).toContain('"Explore routes"');
});

test("email-layout-not-broken: a big date at line-height 0.9 overhangs its line box by empty ascent, not ink: no overlap with the label above", async () => {
  const result = await run(
    "email-layout-not-broken",
    "email-layout-not-broken/regressions/big-date-tight-line-height.eml",
  );
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
});

test("email-images-off-readable: a blank linked image is judged by its own link, not by a text button sharing its href (#)", async () => {
  const result = await run(
    "email-images-off-readable",
    "email-images-off-readable/regressions/blank-play-button-shared-href.eml",
  );
  expect(result.verdict).toBe("fail");
  expect(result.reason).toContain("a linked image without alt text is a blank box with images off");
});

test("email-dark-mode-legible in Gmail's partial inversion (colours converted with culori between reading and writing them)", async () => {
  const legible = await run(
    { id: "email-dark-mode-legible", clients: { "mobile-sm": ["gmail-android-dark"] } },
    "email-dark-mode-legible/pass.eml",
  );
  expect({ verdict: legible.verdict, reason: legible.reason }).toMatchObject({ verdict: "pass" });
  expect(legible.reasoning).toContain("Gmail");
});
