import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../../support/harness";
import { runEmailMessage } from "../../support/fixture-runs";
import { emailAccessibilityWcag } from "../../../src/validations/email/email-accessibility-wcag";
import type { AxeRuleResult, AxeSummary } from "../../../src/capture/artifacts";
import type { RenderChange } from "../../../src/capture/mail-clients/sanitize-record";
import { evaluate, failedRender, mime, render, withRenders } from "../support/email-artifacts";

const ID = emailAccessibilityWcag.meta.id;
const IMG = 'div[role="img"]';

const rule = (id: string, tags: string[], target = IMG): AxeRuleResult => ({
  id,
  impact: "serious",
  help: `${id} help`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${id}`,
  tags,
  nodeCount: 1,
  nodes: [
    { target, failureSummary: "Fix any of the following: aria-labelledby references elements that do not exist" },
  ],
});
const axe = (over: Partial<AxeSummary> = {}): AxeSummary => ({
  version: "4.10.3",
  tags: ["wcag2a", "wcag2aa"],
  violations: [],
  incomplete: [],
  passes: [{ id: "image-alt", tags: ["wcag2a"] }],
  inapplicable: [],
  ...over,
});
const PREFIXED: RenderChange = {
  action: "names-prefixed",
  target: "class and id names prefixed with m_",
  rule: "class names and ids are prefixed with m_",
  source: "caniemail",
  count: 1,
};

describe("per client render", () => {
  test("passes when axe finds no violation in any client's render, and says what ran in each", async () => {
    const out = await evaluate(
      emailAccessibilityWcag,
      await withRenders(ID, [
        render("desktop-md", "apple-mail", { axe: axe() }),
        render("desktop-md", "gmail-web", { axe: axe() }),
      ]),
    );
    expect(out.verdict).toBe("pass");
    expect(out.reasoning).toContain("Apple Mail (macOS) at desktop-md (880px): 1 rule(s) passed, none violated.");
    expect(out.reasoning).toContain("Gmail (web) at desktop-md (940px)");
  });

  test("fails on a violation in one client, the finding naming the client and the client's change on the element", async () => {
    const broken = axe({ violations: [rule("role-img-alt", ["wcag2a"])] });
    const out = await evaluate(
      emailAccessibilityWcag,
      await withRenders(ID, [
        render("desktop-md", "apple-mail", { axe: axe() }),
        render("desktop-md", "gmail-web", { axe: broken, changes: [PREFIXED], changesAt: { [IMG]: [0] } }),
      ]),
    );
    expect(out.verdict).toBe("fail");
    expect(out.findings).toHaveLength(1);
    const [f] = out.findings;
    expect(f!.message).toStartWith("Gmail (web): role-img-alt (serious): role-img-alt help.");
    expect(f!.selector).toBe(IMG);
    expect(f!.measured).toMatchObject({ client: "gmail-web", rule: "role-img-alt" });
    expect((f!.measured!.explainedBy as string[])[0]).toContain(
      "Gmail (web) names-prefixed class and id names prefixed with m_",
    );
    expect(out.reason).toContain("role-img-alt in Gmail (web)");
    expect(out.reason).toContain(", because Gmail (web) names-prefixed");
  });

  test("only the standard's rules count; what axe cannot decide needs review and does not fail", async () => {
    const wcag22 = axe({
      violations: [rule("target-size", ["wcag22aa"])],
      incomplete: [rule("color-contrast", ["wcag2aa"], "p")],
    });
    const input = await withRenders(ID, [render("desktop-md", "apple-mail", { axe: wcag22 })]);
    const at21 = await evaluate(emailAccessibilityWcag, input);
    expect(at21.verdict).toBe("pass");
    expect(at21.findings.map((f) => [f.measured?.rule, f.measured?.outcome])).toEqual([
      ["color-contrast", "needs review"],
    ]);
    expect((await evaluate(emailAccessibilityWcag, input, { standard: "wcag22aa" })).verdict).toBe("fail");
  });

  test("errors when no client could render the message", async () => {
    const out = await evaluate(
      emailAccessibilityWcag,
      await withRenders(ID, [failedRender("desktop-md", "gmail-web", "boom")]),
    );
    expect(out.verdict).toBe("error");
  });
});

describe("through SMTP and the real renders", () => {
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startServer();
    apiKey = (await server.signup()).apiKey;
  }, 120_000);
  afterAll(() => server.stop(), 120_000);

  test("an image named by aria-labelledby keeps its name in Apple Mail and loses it in Gmail, whose id prefix the reference does not follow", async () => {
    const html =
      '<!DOCTYPE html><html lang="en"><head><title>Offer</title></head><body>' +
      '<span id="cup">A cup of coffee</span><div role="img" aria-labelledby="cup" style="width:72px;height:48px"></div>' +
      "</body></html>";
    const done = await runEmailMessage(server, apiKey, Buffer.from(mime({ html }), "utf8"), [
      { id: ID, clients: { "desktop-md": ["apple-mail", "gmail-web"] } },
    ]);
    expect(done.status).toBe("completed");
    const [result] = done.results;
    expect(result.verdict).toBe("fail");
    expect(result.reasoning).toContain("Apple Mail (macOS) at desktop-md (880px):");
    const clients = result.findings
      .filter((f: any) => f.measured.rule === "role-img-alt")
      .map((f: any) => f.measured.client);
    expect(clients).toEqual(["gmail-web"]);
    const finding = result.findings.find((f: any) => f.measured.rule === "role-img-alt");
    expect(finding.measured.explainedBy.join(" ")).toContain("prefixed with m_");
    expect(result.renders.map((r: any) => r.clientId).sort()).toEqual(["apple-mail", "gmail-web"]);
  }, 120_000);
});
