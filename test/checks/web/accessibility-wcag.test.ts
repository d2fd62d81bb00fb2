import { expect, test } from "bun:test";
import type { AxeViolation } from "../../../src/capture/artifacts";
import { accessibilityWcag } from "../../../src/validations/web/accessibility-wcag";
import { artifacts, evaluate, selectors } from "../support/web-artifacts";

const violation = (id: string, targets: string[], tags = ["wcag2a", "wcag111", "best-practice"]): AxeViolation => ({
  id,
  impact: "critical",
  help: `${id} help`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${id}`,
  tags,
  nodes: targets.map((target) => ({ target, failureSummary: "Fix any of the following:\n  Element has no alt" })),
});

test("no violation passes, whatever axe could not decide", async () => {
  const out = await evaluate(accessibilityWcag, artifacts({ axe: { version: "4.10.0", violations: [], passes: 30, incomplete: 4 } }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("30 rule(s) passed, 4 needed review");
});

test("each violating element is a finding with its selector, rule and help page", async () => {
  const out = await evaluate(accessibilityWcag, artifacts({ axe: { version: "4.10.0", violations: [violation("image-alt", ["img", "#logo"]), violation("button-name", ["button"])], passes: 20, incomplete: 0 } }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["img", "#logo", "button"]);
  expect(out.findings[0]).toEqual({
    message: "image-alt (critical): image-alt help. Fix any of the following: Element has no alt",
    selector: "img",
    url: "https://dequeuniversity.com/rules/axe/4.10/image-alt",
    viewport: "desktop-md",
    measured: { rule: "image-alt", impact: "critical", tags: ["wcag2a", "wcag111"] },
  });
  expect(out.reason).toStartWith("Fix 2 WCAG A/AA rule violation(s) on 3 element(s) at desktop-md: image-alt at img");
});
