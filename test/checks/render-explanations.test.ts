import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/harness";
import { runEmailMessage } from "../support/fixture-runs";
import { checkToolResult } from "../support/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * Visual verdicts that cite what a client's profile did to the message, when that is what explains the fault: each
 * message (test/fixtures/email-visual/render-explanations/) delivered over real SMTP to an email job, rendered in real
 * Chromium in the clients named. Beside them: Gmail's link redirect recorded without changing the link the checks
 * judge, and a dark render for every client that darkens mail.
 */
setDefaultTimeout(180_000);
const FIXTURES = join(import.meta.dir, "..", "fixtures", "email-visual", "render-explanations");
const message = (name: string) => readFileSync(join(FIXTURES, `${name}.eml`));

type Job = { jobId: string; status: string; results: any[]; credits: Record<string, number> };
let server: TestServer;
let apiKey: string;
const jobs = new Map<string, Promise<Job>>();
const NON_GOOGLE = { "mobile-sm": ["apple-mail-ios", "gmail-android-non-google"] };
const RUNS: Record<string, [string, unknown[]]> = {
  cta: [
    "button-styled-in-head",
    [
      { id: "email-cta-visible", clients: { ...NON_GOOGLE, "desktop-md": ["gmail-web"] } },
      "email-secure-links",
      "email-utm-tracking",
      "email-unsubscribe-link",
    ],
  ],
  layout: ["fixed-height-box", [{ id: "email-layout-not-broken", clients: NON_GOOGLE }]],
  responsive: ["fluid-in-head", [{ id: "email-mobile-responsive", clients: NON_GOOGLE }]],
  unrelated: ["fixed-width-unrelated-change", [{ id: "email-mobile-responsive", clients: NON_GOOGLE }]],
  imagesOff: [
    "embedded-image-button",
    [{ id: "email-images-off-readable", clients: { "desktop-md": ["apple-mail", "gmail-web"] } }],
  ],
  dark: ["dark-styles-in-head", [{ id: "email-dark-mode-legible", clients: { "mobile-sm": ["gmail-ios"] } }]],
  inverting: [
    "dark-styles-in-head",
    [
      {
        id: "email-dark-mode-legible",
        clients: { "mobile-sm": ["samsung-mail", "gmail-android-non-google"], "desktop-md": ["outlook-windows"] },
      },
    ],
  ],
};

beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
  for (const [key, [name, validations]] of Object.entries(RUNS)) {
    const job = runEmailMessage(server, apiKey, message(name), validations);
    job.catch(() => {}); // awaited by its test
    jobs.set(key, job);
  }
}, 180_000);
afterAll(() => server.stop(), 120_000);

const resultOf = async (key: string, id: string) => {
  const job = await jobs.get(key)!;
  expect(job.status).toBe("completed");
  return job.results.find((r) => r.validationId === id);
};
const explainedBy = (finding: any): string[] => finding?.measured?.explainedBy ?? [];

describe("a visual verdict cites the client's change that explains its fault", () => {
  test("email-cta-visible: the button coloured from the head is white on white where the Gmail app drops every <style> block", async () => {
    const result = await resultOf("cta", "email-cta-visible");
    expect(result.verdict).toBe("fail");
    const [finding, ...others] = result.findings;
    expect(others).toEqual([]);
    expect(finding.measured.client).toBe("gmail-android-non-google");
    expect(finding.message).toContain("contrast");
    expect(explainedBy(finding)).toEqual([
      expect.stringContaining("Gmail (Android app, non-Google account) drops a <style> block (line 4)"),
    ]);
    expect(explainedBy(finding)[0]).toContain("(source: caniemail, https://www.caniemail.com/)");
    expect(result.reason).toContain(", because Gmail (Android app, non-Google account) drops a <style> block (line 4)");
    // The change is the render's own, as the verbose result lists it beside the render.
    const render = result.renders.find((r: any) => r.clientId === "gmail-android-non-google");
    expect(render.changes).toContainEqual(expect.objectContaining({ action: "style-block-removed", line: 4 }));
  });

  test("email-layout-not-broken: a fixed height freed by a media query overflows where the client drops the query's block", async () => {
    const result = await resultOf("layout", "email-layout-not-broken");
    expect(result.verdict).toBe("fail");
    expect(result.findings.every((f: any) => f.measured.client === "gmail-android-non-google")).toBe(true);
    expect(explainedBy(result.findings[0])[0]).toContain(
      "Gmail (Android app, non-Google account) drops a <style> block (line 4): <style> is not supported with non-Google accounts",
    );
    expect(result.reason).toContain(", because Gmail (Android app, non-Google account) drops a <style> block");
  });

  test("email-mobile-responsive: a 600px table made fluid by a media query is too wide where the client drops it", async () => {
    const result = await resultOf("responsive", "email-mobile-responsive");
    expect(result.verdict).toBe("fail");
    const [whole, ...culprits] = result.findings;
    expect(whole.measured.client).toBe("gmail-android-non-google");
    expect(explainedBy(whole)[0]).toContain("drops a <style> block (line 4)");
    expect(culprits.some((f: any) => explainedBy(f).length > 0)).toBe(true);
    expect(result.reason).toContain("make ");
    expect(result.reason).toContain(", because Gmail (Android app, non-Google account) drops a <style> block");
  });

  test("nothing is cited that does not explain the fault: a fixed 640px table is too wide in both clients, and the dropped border-radius is not named", async () => {
    const result = await resultOf("unrelated", "email-mobile-responsive");
    expect(result.verdict).toBe("fail");
    expect(result.findings.map((f: any) => f.measured.client)).toContain("apple-mail-ios");
    expect(result.findings.some((f: any) => explainedBy(f).length > 0)).toBe(false);
    expect(result.reason).not.toContain("because");
    // The Gmail app did drop the style block: it styled an element inside the table, not its width.
    const render = result.renders.find((r: any) => r.clientId === "gmail-android-non-google");
    expect(render.changes).toContainEqual(expect.objectContaining({ action: "style-block-removed" }));
  });

  test("email-images-off-readable: an embedded (data:) image button shows in Apple Mail, and is a blank box where Gmail drops data: sources", async () => {
    const result = await resultOf("imagesOff", "email-images-off-readable");
    expect(result.verdict).toBe("fail");
    expect(result.findings.map((f: any) => [f.measured.client, f.message])).toEqual([
      ["gmail-web", "Gmail (web): a linked image without alt text is a blank box with images off"],
    ]);
    expect(explainedBy(result.findings[0])).toEqual([
      expect.stringMatching(
        /^Gmail \(web\) drops the attribute src="data:image\/png;base64,.*" on img \(line 6\): Base 64 image format: not supported in gmail\.desktop-webmail/,
      ),
    ]);
    expect(result.reason).toContain(", because Gmail (web) drops the attribute src=");
  });

  test("email-dark-mode-legible: the Gmail app's inversion turns the headline white on yellow, and the dark styles it dropped for that text are cited", async () => {
    const result = await resultOf("dark", "email-dark-mode-legible");
    expect(result.verdict).toBe("fail");
    const headline = result.findings.find((f: any) => f.text === "The sale ends on Sunday");
    expect(headline.measured).toMatchObject({ client: "gmail-ios-dark", cause: "forced-inversion" });
    expect(explainedBy(headline)).toEqual([
      expect.stringContaining(
        "Gmail (iPhone app), dark mode drops @media (prefers-color-scheme: dark) (line 5): @media (prefers-color-scheme): not supported in gmail.ios",
      ),
    ]);
    expect(result.reason).toContain("The sale ends on Sunday");
    expect(result.reason).toContain(
      ", because Gmail (iPhone app), dark mode drops @media (prefers-color-scheme: dark)",
    );
  });
});

describe("every client that darkens mail renders dark", () => {
  test("Samsung Email, the Gmail app for other accounts and Outlook for Windows render their dark variants, each saying how", async () => {
    const result = await resultOf("inverting", "email-dark-mode-legible");
    const job = await jobs.get("inverting")!;
    const renders = Object.fromEntries(result.renders.map((r: any) => [r.clientId, r]));
    expect(Object.keys(renders).sort()).toEqual([
      "gmail-android-non-google-dark",
      "outlook-windows-dark",
      "samsung-mail-dark",
    ]);
    expect(renders["samsung-mail-dark"].darkMode).toMatchObject({
      method: "forced-inversion",
      extent: "full",
      darkened: true,
    });
    expect(renders["gmail-android-non-google-dark"].darkMode).toMatchObject({
      method: "forced-inversion",
      extent: "partial",
    });
    expect(renders["outlook-windows-dark"].darkMode).toMatchObject({ method: "forced-inversion", extent: "full" });
    expect(renders["samsung-mail-dark"].screenshotUrl).toEndWith(`${job.jobId}-samsung-mail-dark-mobile-sm.jpg`);
    expect(result.reasoning).toContain(
      "Samsung Email (Android), dark mode at mobile-sm (375px) (forced inversion, full)",
    );
    // Priced as the client itself: samsung-mail and outlook-windows are extra-credit clients.
    expect(job.credits.charged).toBe(5);
  });

  test("the catalog offers a dark variant of every client whose dark mode is not 'none'", async () => {
    const res = await server.api("GET", "/api/email-clients", { key: apiKey });
    for (const [formFactor, { clients }] of Object.entries(res.body.formFactors as Record<string, any>))
      for (const c of Object.values(clients as Record<string, any>))
        if (c.colorScheme === "light")
          expect({ formFactor, id: c.id, darkVariant: c.darkVariant }).toEqual({
            formFactor,
            id: c.id,
            darkVariant: c.darkMode === "none" ? undefined : `${c.id}-dark`,
          });
  });
});

describe("Gmail's link redirect", () => {
  test("is recorded on every Gmail render with its source, while the link checks and the call to action follow the sender's own links", async () => {
    const job = await jobs.get("cta")!;
    const verdicts = Object.fromEntries(job.results.map((r) => [r.validationId, r.verdict]));
    expect(verdicts).toEqual({
      "email-cta-visible": "fail",
      "email-secure-links": "pass",
      "email-utm-tracking": "pass",
      "email-unsubscribe-link": "pass",
    });
    const cta = job.results.find((r) => r.validationId === "email-cta-visible");
    const gmail = cta.renders.find((r: any) => r.clientId === "gmail-web");
    expect(gmail.changes).toContainEqual(
      expect.objectContaining({
        action: "link-rewritten",
        target: "links open through https://www.google.com/url?q=<href>&source=gmail in a new tab (the href is kept)",
        source: "gmail-links",
        count: 2,
      }),
    );
    expect(gmail.sources["gmail-links"]).toMatchObject({ name: "Gmail's link redirect, as observed" });
    expect(cta.renders.find((r: any) => r.clientId === "apple-mail-ios").changes).not.toContainEqual(
      expect.objectContaining({ action: "link-rewritten" }),
    );
    // The button is followed into Gmail by its own href, and found there readable.
    expect(cta.findings.some((f: any) => f.measured.client === "gmail-web")).toBe(false);
    expect(cta.reasoning).toContain("https://trailhead.example/sale?utm_source=email");
  });
});

test("MCP's get_job gives the same: the reason's citation and each render's changes with their sources", async () => {
  const job = await jobs.get("cta")!;
  const client = new Client({ name: "assay-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  try {
    const answer = (await client.callTool({
      name: "get_job",
      arguments: { jobId: job.jobId, detail: "verbose" },
    })) as CallToolResult;
    expect(answer.isError).toBeFalsy();
    checkToolResult("get_job", answer);
    const cta = (answer.structuredContent as any).results.find((r: any) => r.validationId === "email-cta-visible");
    expect(cta.reason).toContain(", because Gmail (Android app, non-Google account) drops a <style> block (line 4)");
    const gmail = cta.renders.find((r: any) => r.clientId === "gmail-web");
    expect(gmail.changes).toContainEqual(expect.objectContaining({ action: "link-rewritten", source: "gmail-links" }));
    expect(gmail.sources["gmail-links"].url).toStartWith("https://");
  } finally {
    await client.close();
  }
});
