import { describe, expect, test } from "bun:test";
import { acceptingIgnores, judgeRun, type PageResults, type PageRow } from "../../src/domain/run-comparison";
import { parseRunFailOn } from "../../src/domain/run-policy";
import type { IgnoreData } from "../../events/runs";

/** The run's judgement as a pure function: the comparison, failOn (with new and visual), and ignores. No store, no browser. */

const pass = (validationId: string, severity: PageRow["severity"] = "major"): PageRow => ({
  validationId,
  severity,
  verdict: "pass",
  findings: [],
});
const fail = (
  validationId: string,
  severity: PageRow["severity"] = "major",
  findings: PageRow["findings"] = [],
): PageRow => ({
  validationId,
  severity,
  verdict: "fail",
  reason: `${validationId} failed`,
  findings,
});
const error = (validationId: string, severity: PageRow["severity"] = "major"): PageRow => ({
  validationId,
  severity,
  verdict: "error",
  reason: "could not run",
  findings: [],
});
const pageOf = (pageKey: string, rows: PageRow[], status: PageResults["status"] = "completed"): PageResults => ({
  pageKey,
  status,
  rows,
});

describe("failOn", () => {
  test("the pass policy's words, plus new and visual, in any case and order", () => {
    expect(parseRunFailOn("fail")).toEqual({
      threshold: { minRank: 2, errorsBlock: false },
      newOnly: false,
      visual: false,
    });
    expect(parseRunFailOn("New, MINOR,error,visual")).toEqual({
      threshold: { minRank: 1, errorsBlock: true },
      newOnly: true,
      visual: true,
    });
    // `new` alone keeps the default threshold.
    expect(parseRunFailOn("new").threshold).toEqual({ minRank: 2, errorsBlock: false });
    expect(() => parseRunFailOn("new,sometimes")).toThrow(RangeError);
    expect(() => parseRunFailOn("minor,major")).toThrow(RangeError);
  });
});

describe("the comparison", () => {
  const baseline = [
    pageOf("/", [pass("title"), fail("lang"), fail("h1", "minor")]),
    pageOf("/about", [fail("title"), pass("lang")]),
    pageOf("/gone", [fail("title")]),
  ];

  test("per page and check: new failures, fixed, still failing, new pages, pages gone", () => {
    const judged = judgeRun({
      current: [
        pageOf("/", [fail("title"), fail("lang"), pass("h1", "minor")]),
        pageOf("/about", [pass("title"), fail("lang")]),
        pageOf("/new", [fail("title"), pass("lang")]),
      ],
      baseline,
      ignores: [],
      failOn: "fail",
    });
    expect(judged.comparison).toEqual({
      newFailures: [
        { pageKey: "/", validationId: "title", reason: "title failed" },
        { pageKey: "/about", validationId: "lang", reason: "lang failed" },
        { pageKey: "/new", validationId: "title", reason: "title failed" },
      ],
      fixed: [
        { pageKey: "/", validationId: "h1", reason: "h1 failed" },
        { pageKey: "/about", validationId: "title", reason: "title failed" },
      ],
      stillFailing: [{ pageKey: "/", validationId: "lang", reason: "lang failed" }],
      newPages: ["/new"],
      pagesGone: ["/gone"],
      visualChanges: [],
    });
    expect(judged.counts).toEqual({
      pages: 3,
      passed: 0,
      blocked: 3,
      undecided: 0,
      newFailures: 3,
      fixed: 2,
      stillFailing: 1,
      newPages: 1,
      pagesGone: 1,
      ignored: 0,
      visualChanges: 0,
    });
  });

  test("a check that could not run now is neither fixed nor still failing; one that could not run in the baseline makes a failure new", () => {
    const judged = judgeRun({
      current: [pageOf("/", [fail("title"), error("lang"), pass("h1", "minor")])],
      baseline: [pageOf("/", [error("title"), fail("lang"), fail("h1", "minor")])],
      ignores: [],
      failOn: "fail",
    });
    expect(judged.comparison!.newFailures.map((f) => f.validationId)).toEqual(["title"]);
    expect(judged.comparison!.fixed.map((f) => f.validationId)).toEqual(["h1"]);
    expect(judged.comparison!.stillFailing).toEqual([]);
  });

  test("a check not selected in the baseline makes its failure new", () => {
    const judged = judgeRun({
      current: [pageOf("/", [fail("title"), fail("contrast", "critical")])],
      baseline: [pageOf("/", [fail("title")])],
      ignores: [],
      failOn: "new",
    });
    expect(judged.comparison!.newFailures.map((f) => f.validationId)).toEqual(["contrast"]);
    expect(judged.decision).toBe("blocked");
  });

  test("without a baseline there is no comparison, and under new every failure is new", () => {
    const judged = judgeRun({
      current: [pageOf("/", [fail("title")]), pageOf("/b", [pass("title")])],
      baseline: null,
      ignores: [],
      failOn: "new",
    });
    expect(judged.comparison).toBeNull();
    expect(judged.pages.map((p) => p.decision)).toEqual(["blocked", "pass"]);
    expect(judged.counts).toMatchObject({ newFailures: 1, stillFailing: 0, newPages: 0, pagesGone: 0 });
  });

  test("reasons are kept to 500 characters", () => {
    const long = { ...fail("title"), reason: "x".repeat(2000) };
    const judged = judgeRun({ current: [pageOf("/", [long])], baseline: [], ignores: [], failOn: "fail" });
    expect(judged.comparison!.newFailures[0]!.reason).toHaveLength(500);
    expect(judged.pages[0]!.failures[0]!.reason).toHaveLength(500);
  });
});

describe("the decision", () => {
  const baseline = [pageOf("/", [fail("title"), pass("lang"), pass("h1", "minor")])];

  test("failOn new blocks only on new failures; the threshold still says which severities do", () => {
    const current = [pageOf("/", [fail("title"), pass("lang"), fail("h1", "minor")])];
    const known = judgeRun({ current, baseline, ignores: [], failOn: "new" });
    // The title failure is known; the new h1 failure is minor, below the default threshold.
    expect(known.decision).toBe("pass");
    expect(judgeRun({ current, baseline, ignores: [], failOn: "new,minor" }).decision).toBe("blocked");
    // Without `new`, the known major failure blocks.
    expect(judgeRun({ current, baseline, ignores: [], failOn: "fail" }).decision).toBe("blocked");
    const regressed = [pageOf("/", [fail("title"), fail("lang"), pass("h1", "minor")])];
    expect(judgeRun({ current: regressed, baseline, ignores: [], failOn: "new" }).decision).toBe("blocked");
  });

  test("errors leave a page undecided unless failOn names error; an interrupted or expired page that nothing blocks is undecided", () => {
    const errored = [pageOf("/", [error("title"), pass("lang")])];
    expect(judgeRun({ current: errored, baseline: null, ignores: [], failOn: "fail" }).decision).toBe("undecided");
    expect(judgeRun({ current: errored, baseline: null, ignores: [], failOn: "fail,error" }).decision).toBe("blocked");
    const cutOff = [pageOf("/", [pass("title")], "interrupted"), pageOf("/b", [pass("title")])];
    const judged = judgeRun({ current: cutOff, baseline: null, ignores: [], failOn: "fail" });
    expect(judged.pages.map((p) => p.decision)).toEqual(["undecided", "pass"]);
    expect(judged.decision).toBe("undecided");
    const expired = [pageOf("mail", [error("subject")], "expired")];
    expect(judgeRun({ current: expired, baseline: null, ignores: [], failOn: "fail" }).decision).toBe("undecided");
  });

  test("a prohibited check that fails blocks at any threshold below it; blocked wins over undecided across pages", () => {
    const judged = judgeRun({
      current: [pageOf("/", [fail("forbidden", "prohibited")]), pageOf("/b", [error("title", "critical")])],
      baseline: null,
      ignores: [],
      failOn: "critical",
    });
    expect(judged.pages.map((p) => p.decision)).toEqual(["blocked", "undecided"]);
    expect(judged.decision).toBe("blocked");
  });

  test("visual changes beyond the tolerance block under visual, and are listed either way", () => {
    const visualChanges = [
      { pageKey: "/", size: "desktop-md", changedRatio: 0.2, changed: true },
      { pageKey: "/b", size: "desktop-md", changedRatio: 0.0001, changed: false },
    ];
    const current = [pageOf("/", [pass("title")]), pageOf("/b", [pass("title")])];
    const baselinePages = [pageOf("/", [pass("title")]), pageOf("/b", [pass("title")])];
    const quiet = judgeRun({ current, baseline: baselinePages, ignores: [], failOn: "fail", visualChanges });
    expect(quiet.decision).toBe("pass");
    expect(quiet.comparison!.visualChanges).toEqual([{ pageKey: "/", size: "desktop-md", changedRatio: 0.2 }]);
    const strict = judgeRun({ current, baseline: baselinePages, ignores: [], failOn: "new,visual", visualChanges });
    expect(strict.pages.map((p) => p.decision)).toEqual(["blocked", "pass"]);
  });
});

describe("ignores", () => {
  const h1s = fail("h1", "major", [
    { message: 'h1 "A"', selector: "#first" },
    { message: 'h1 "B"', selector: "main > h1.promo", text: "Spring promo" },
  ]);
  const ignore = (extra: Partial<IgnoreData>): IgnoreData => ({ check: "h1", reason: "known", ...extra });

  test("an ignore of the check alone, on every page or on the pages its glob matches, accepts the failure whole", () => {
    expect(acceptingIgnores([ignore({})], "https://a.example/x", h1s)).toEqual([ignore({})]);
    expect(acceptingIgnores([ignore({ page: "https://a.example/*" })], "https://a.example/x", h1s)).toHaveLength(1);
    expect(acceptingIgnores([ignore({ page: "https://a.example/*" })], "https://a.example/x/y", h1s)).toEqual([]);
    expect(acceptingIgnores([ignore({ page: "https://a.example/**" })], "https://a.example/x/y", h1s)).toHaveLength(1);
    expect(acceptingIgnores([ignore({ check: "title" })], "/", h1s)).toEqual([]);
  });

  test("with a selector or finding text, every finding must be matched, by one ignore or several", () => {
    expect(acceptingIgnores([ignore({ selector: "#first" })], "/", h1s)).toEqual([]);
    const both = [
      ignore({ selector: "#first", reason: "first" }),
      ignore({ finding: "spring PROMO", reason: "promo" }),
    ];
    expect(acceptingIgnores(both, "/", h1s).map((i) => i.reason)).toEqual(["first", "promo"]);
    expect(acceptingIgnores([ignore({ finding: "h1 " })], "/", h1s)).toHaveLength(1);
    // Selector and finding together must both hold for a finding.
    expect(acceptingIgnores([ignore({ selector: "h1", finding: "A" })], "/", h1s)).toEqual([]);
  });

  test("a failure without findings is matched by its reason; a selector never matches it", () => {
    const bare = fail("title");
    expect(acceptingIgnores([ignore({ check: "title", finding: "TITLE FAILED" })], "/", bare)).toHaveLength(1);
    expect(acceptingIgnores([ignore({ check: "title", selector: "head" })], "/", bare)).toEqual([]);
  });

  test("an accepted failure stays on its page marked accepted, is listed in ignored, never blocks and never counts in the comparison", () => {
    const judged = judgeRun({
      current: [pageOf("/", [h1s, fail("title")]), pageOf("/b", [h1s])],
      baseline: [pageOf("/", [fail("h1")]), pageOf("/b", [pass("h1")])],
      ignores: [
        ignore({ selector: "#first", reason: "first" }),
        ignore({ finding: "promo", reason: "promo" }),
        { check: "title", page: "/", reason: "the home page's title is the CMS's" },
      ],
      failOn: "fail",
    });
    expect(judged.pages[0]!.failures).toEqual([
      { validationId: "h1", severity: "major", reason: "h1 failed", accepted: { reason: "first; promo" } },
      {
        validationId: "title",
        severity: "major",
        reason: "title failed",
        accepted: { reason: "the home page's title is the CMS's" },
      },
    ]);
    expect(judged.ignored).toEqual([
      { pageKey: "/", validationId: "h1", selector: "#first", reason: "first" },
      { pageKey: "/", validationId: "h1", finding: "promo", reason: "promo" },
      { pageKey: "/", validationId: "title", reason: "the home page's title is the CMS's" },
      { pageKey: "/b", validationId: "h1", selector: "#first", reason: "first" },
      { pageKey: "/b", validationId: "h1", finding: "promo", reason: "promo" },
    ]);
    expect(judged.decision).toBe("pass");
    expect(judged.comparison).toMatchObject({ newFailures: [], stillFailing: [], fixed: [] });
    expect(judged.counts.ignored).toBe(5);
  });
});
