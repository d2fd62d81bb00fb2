import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * The axe-core rules accessibility-wcag runs for W3C ACT rules that a WCAG tag run leaves out (scripts/act/mapping.ts,
 * docs/act.md), on real Chromium through the API: css-orientation-lock (ACT b33eff, WCAG 1.3.4; axe marks it
 * experimental) and summary-name (ACT 2t702h, WCAG 4.1.2), and Assay's own axe rules (src/capture/axe-rules/):
 * frame-tab-order (ACT akn7bn, WCAG 2.1.1) and header-assigned-cells (ACT d0f69e, WCAG 1.3.1); axe's best-practice rules
 * when asked for (ACT ffd0e9, 46ca7f); aria-braille-prohibited (ACT kb1m8s); and Assay's checks in place of axe's
 * (ACT 2ee8b8, 6a7281, kb1m8s, 6cfa84). Fixtures: test/fixtures/web/accessibility-wcag/act/.
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "web", "accessibility-wcag", "act");

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

async function run(page: string, standard = "wcag21aa", more: Record<string, unknown> = {}) {
  const html = readFileSync(join(FIXTURES, page), "utf8");
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [{ id: "accessibility-wcag", parameters: { standard, ...more } }]),
  });
  expect(res.status).toBe(200);
  return res.body.results[0] as {
    verdict: string;
    reasoning: string;
    findings: Array<{ selector?: string; message: string; measured?: Record<string, unknown> }>;
  };
}

/** The violations (axe's "needs review" findings left aside), as "rule selector". */
const rulesOf = (r: Awaited<ReturnType<typeof run>>) =>
  r.findings.filter((f) => f.measured?.outcome !== "needs review").map((f) => `${f.measured?.rule} ${f.selector}`);

test("a page turned a quarter in one orientation by CSS fails WCAG 1.3.4 (css-orientation-lock), at the element turned", async () => {
  const r = await run("orientation-locked.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual(["css-orientation-lock html"]);
});

test("a page that adapts to portrait without turning, with a named summary, passes; a stylesheet axe reads nothing in is not listed as needing review", async () => {
  const r = await run("orientation-free.html");
  expect({ verdict: r.verdict, findings: rulesOf(r) }).toEqual({ verdict: "pass", findings: [] });
  expect(r.reasoning).toContain("css-orientation-lock");
  expect(r.reasoning).toContain("summary-name");
});

test("an empty summary of a details element fails WCAG 4.1.2 (summary-name)", async () => {
  const r = await run("summary-unnamed.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual(["summary-name summary"]);
});

test("an iframe out of the tab order whose content has a link fails WCAG 2.1.1 (frame-tab-order); one with nothing to focus, a hidden one and one in the tab order do not", async () => {
  const r = await run("frame-out-of-tab-order.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual(['frame-tab-order iframe[title="Holidays"]']);
  expect(r.findings[0]!.message).toContain("An iframe with focusable content must not have a negative tabindex");
});

test("a table header no cell is assigned to fails WCAG 1.3.1 (header-assigned-cells); row headers, spans, headers attributes and an empty body do not", async () => {
  const r = await run("table-header-without-cells.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual(["header-assigned-cells #rates > thead > tr > th:nth-child(2)"]);
});

test("AAA's rules run only when a AAA standard is asked for: text at 5:1 passes WCAG 2.1 AA and fails 2.1 AAA (color-contrast-enhanced, ACT 09o5cg), and so does a timed meta refresh (meta-refresh-no-exceptions, ACT bisz58)", async () => {
  const aa = await run("contrast-five-to-one.html");
  expect({ verdict: aa.verdict, findings: rulesOf(aa) }).toEqual({ verdict: "pass", findings: [] });
  expect(aa.reasoning).not.toContain("color-contrast-enhanced");
  const aaa = await run("contrast-five-to-one.html", "wcag21aaa");
  expect(aaa.verdict).toBe("fail");
  expect(rulesOf(aaa)).toEqual(["color-contrast-enhanced p", 'meta-refresh-no-exceptions meta[http-equiv="refresh"]']);
  expect(aaa.reasoning).toContain("WCAG 2.1 AAA");
});

test("only the meta refresh a browser follows is judged (ACT bc659a): a redirect at once before a delayed refresh passes, a delayed refresh after one that cannot be parsed fails", async () => {
  const atOnce = await run("refresh-at-once-then-delayed.html");
  expect({ verdict: atOnce.verdict, findings: rulesOf(atOnce) }).toEqual({ verdict: "pass", findings: [] });
  expect(atOnce.reasoning).toContain("meta-refresh");
  const unparsable = await run("refresh-unparsable-then-delayed.html");
  expect(unparsable.verdict).toBe("fail");
  expect(unparsable.findings.map((f) => f.selector)).toEqual(['meta[content="30; https://example.com/later"]']);
});

test("axe's best-practice rules count only when bestPractices asks for them: a heading with no name (empty-heading, ACT ffd0e9) and an image marked decorative yet labelled (presentation-role-conflict, ACT 46ca7f)", async () => {
  const wcag = await run("best-practice-empty-heading.html");
  expect({ verdict: wcag.verdict, findings: rulesOf(wcag) }).toEqual({ verdict: "pass", findings: [] });
  expect(wcag.reasoning).not.toContain("empty-heading");
  const bestPractices = await run("best-practice-empty-heading.html", "wcag21aa", { bestPractices: true });
  expect(bestPractices.verdict).toBe("fail");
  expect(rulesOf(bestPractices).sort()).toEqual(["empty-heading #closed", "presentation-role-conflict img"]);
  expect(bestPractices.findings.find((f) => f.measured?.rule === "empty-heading")?.measured?.tags).toEqual([
    "best-practice",
  ]);
  expect(bestPractices.reasoning).toContain("and best-practice");
});

test("ARIA 1.3's aria-braillelabel where a name is prohibited and aria-roledescription on a generic element fail WCAG 4.1.2 (aria-braille-prohibited, ACT kb1m8s); on a heading and a group they pass", async () => {
  const r = await run("braille-label-prohibited.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual(["aria-braille-prohibited #love", "aria-braille-prohibited #banana-text"]);
});

test("with bestPractices, a page whose block of navigation is followed by text without a heading, and that has no main landmark, fails main-landmark-after-navigation (ACT b40fd1) and heading-after-navigation (ACT 047fe0); one with both passes them", async () => {
  const without = await run("navigation-without-main.html", "wcag21aa", { bestPractices: true });
  const ours = (r: Awaited<ReturnType<typeof run>>) =>
    rulesOf(r).filter((f) => /^(main-landmark|heading)-after-navigation /.test(f));
  expect(ours(without)).toEqual(["main-landmark-after-navigation html", "heading-after-navigation html"]);
  const withMain = await run("navigation-with-main.html", "wcag21aa", { bestPractices: true });
  expect(ours(withMain)).toEqual([]);
  expect(withMain.reasoning).toContain("heading-after-navigation");
  const wcagOnly = await run("navigation-without-main.html");
  expect(ours(wcagOnly)).toEqual([]);
});

/** The findings of one axe rule, as "outcome selector" (a violation, or axe's "needs review"). */
const findingsOf = (r: Awaited<ReturnType<typeof run>>, rule: string) =>
  r.findings
    .filter((f) => f.measured?.rule === rule)
    .map((f) => `${f.measured?.outcome === "needs review" ? "review" : "violation"} ${f.selector}`);

test("a visible label that is not in the name fails WCAG 2.5.3 (label-content-name-mismatch, ACT 2ee8b8), a lone digit too; icon-font text, an abbreviation the name spells out, a hyphenated word and a lone symbol or letter (×, →, X, B) do not, nor are they left for review", async () => {
  const r = await run("label-in-name.html");
  expect(r.verdict).toBe("fail");
  expect(findingsOf(r, "label-content-name-mismatch")).toEqual(["violation #mismatch", "violation #digit"]);
  expect(r.findings[0]!.message).toContain("Text inside the element is not included in the accessible name");
});

test("an ARIA attribute with an empty value is as if not set (ACT 6a7281): not left for review; a value that is not one of the attribute's tokens fails (aria-valid-attr-value)", async () => {
  const r = await run("aria-empty-values.html");
  expect(r.verdict).toBe("fail");
  expect(findingsOf(r, "aria-valid-attr-value")).toEqual(["violation #invalid"]);
});

test("aria-label or aria-labelledby on a role that prohibits naming fails WCAG 4.1.2 (aria-prohibited-attr, ACT kb1m8s) even when the element has text or the reference is visible or missing; on roles that take a name it does not", async () => {
  const r = await run("aria-prohibited-names.html");
  expect(r.verdict).toBe("fail");
  expect(findingsOf(r, "aria-prohibited-attr")).toEqual([
    "violation #price",
    "violation #love",
    "violation #nowhere",
    "violation #rating",
  ]);
  expect(r.findings.find((f) => f.selector === "#price")!.message).toContain(
    'aria-label attribute cannot be used on "div" elements with no valid role attribute',
  );
});

test("a focusable element in aria-hidden content beside an open modal is decided by focusing it (aria-hidden-focus, ACT 6cfa84): a sentinel that keeps focus fails, one that sends focus back into the dialog, at once or a moment later, passes", async () => {
  const r = await run("aria-hidden-focus-sentinels.html");
  expect(r.verdict).toBe("fail");
  expect(findingsOf(r, "aria-hidden-focus")).toEqual(["violation #strands"]);
  expect(r.findings.find((f) => f.selector === "#strands")!.message).toContain(
    "Focus stays inside the aria-hidden content when its focusable element is focused",
  );
});

test("boxes with overflow hidden that cut their text when the page is zoomed to 200% (laid out at 640×512) fail WCAG 1.4.4 (zoomed-text-clipped, ACT 59br37): a fixed height, a box clipped only at the zoomed width, a fixed width without an ellipsis, a box shorter than its line", async () => {
  const r = await run("zoom-clipped.html");
  expect(r.verdict).toBe("fail");
  expect(rulesOf(r)).toEqual([
    "zoomed-text-clipped #fixed-height",
    "zoomed-text-clipped #narrow-only",
    "zoomed-text-clipped #no-ellipsis",
    "zoomed-text-clipped #shorter-than-line",
  ]);
  const fixed = r.findings.find((f) => f.selector === "#fixed-height")!;
  expect(fixed.message).toContain("At 200% zoom (the page laid out at 640×512 CSS px) this box, ");
  expect(fixed.message).toMatch(
    /with overflow: hidden, cuts off its text \("The library opens at .*"\), which reaches \d+ px past its bottom edge/,
  );
  expect(r.findings.find((f) => f.selector === "#no-ellipsis")!.message).toMatch(/\d+ px past its right edge/);
  // Read at no capture size: the finding names no viewport (desktop-md's would be wrong).
  expect(fixed).not.toHaveProperty("viewport");
});

test("text that is whole at 200% zoom, or hidden on purpose, is not reported (zoomed-text-clipped): a box that grows, one sized in em with room, visually-hidden text, an ellipsis, a box one line tall, a line clamp, a closed panel, carousel slides out of view, a tooltip that escapes the clip, text in a scrolling box", async () => {
  const r = await run("zoom-not-clipped.html");
  expect(rulesOf(r)).toEqual([]);
  expect(r.reasoning).toContain("zoomed-text-clipped");
});

test("the page is given back at the size it loaded at after the zoomed layout: a heading hidden only at 640 px is still read by the checks after axe", async () => {
  const html = readFileSync(join(FIXTURES, "zoom-restores-page.html"), "utf8");
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [{ id: "accessibility-wcag" }, { id: "single-h1" }]),
  });
  expect(res.status).toBe(200);
  const verdicts = Object.fromEntries(
    (res.body.results as Array<{ validationId: string; verdict: string }>).map((x) => [x.validationId, x.verdict]),
  );
  expect(verdicts).toEqual({ "accessibility-wcag": "pass", "single-h1": "pass" });
});
