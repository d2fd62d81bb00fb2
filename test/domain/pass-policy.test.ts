import { describe, expect, test } from "bun:test";
import { ASSAY_SEVERITIES, POLICY_SEVERITIES } from "../../src/contracts/job-request";
import {
  decideJob,
  type DecidableJob,
  parseThreshold,
  passPolicy,
  policySeverity,
  SEVERITY_MAPPING,
  storedSeverity,
  type PolicyRow,
} from "../../src/domain/pass-policy";

/** The pass policy on its own: the severity mapping, the --fail-on threshold and the decision. No server. */

const row = (validationId: string, severity: PolicyRow["severity"], verdict: "pass" | "fail" | "error"): PolicyRow => ({
  validationId,
  severity,
  verdict,
});

describe("the severity mapping", () => {
  test("Assay's severities in the hosted vocabulary: critical and major are required, minor recommended, info optional", () => {
    expect(ASSAY_SEVERITIES.map(policySeverity)).toEqual(["required", "required", "recommended", "optional"]);
    expect(POLICY_SEVERITIES.map(policySeverity)).toEqual([...POLICY_SEVERITIES]);
  });

  test("a request's hosted severity is stored in Assay's, and maps back to itself; prohibited is stored as critical", () => {
    expect(POLICY_SEVERITIES.map(storedSeverity)).toEqual(["critical", "minor", "info", "critical"]);
    for (const s of ["required", "recommended", "optional"] as const) expect(policySeverity(storedSeverity(s))).toBe(s);
    expect(ASSAY_SEVERITIES.map(storedSeverity)).toEqual([...ASSAY_SEVERITIES]);
  });

  test("the published table agrees with the functions, and says which block", () => {
    for (const m of SEVERITY_MAPPING) if (m.assay) expect(policySeverity(m.assay)).toBe(m.policy);
    expect(SEVERITY_MAPPING.filter((m) => m.blocks).map((m) => m.policy)).toEqual([
      "required",
      "required",
      "prohibited",
    ]);
  });
});

describe("the threshold", () => {
  test("fail by default: required and prohibited failures block, the others warn", () => {
    expect(parseThreshold("fail")).toEqual({ minRank: 2, errorsBlock: false });
    expect(parseThreshold("required")).toEqual(parseThreshold("fail"));
    expect(parseThreshold("MAJOR")).toEqual(parseThreshold("fail"));
  });

  test("severity names of either vocabulary, and error", () => {
    expect(parseThreshold("minor")).toEqual(parseThreshold("recommended"));
    expect(parseThreshold("info")).toEqual(parseThreshold("optional"));
    expect(parseThreshold("fail, error")).toEqual({ minRank: 2, errorsBlock: true });
    expect(parseThreshold("critical,error")).toEqual({ minRank: 3, errorsBlock: true });
  });

  test("an unknown word, an empty value or two severities are refused by name", () => {
    expect(() => parseThreshold("warn")).toThrow(/Unknown threshold word "warn"/);
    expect(() => parseThreshold(" , ")).toThrow(RangeError);
    expect(() => parseThreshold("minor,major")).toThrow(/two severities/);
  });
});

describe("the decision", () => {
  const rows = [
    row("title", "major", "fail"),
    row("lang", "critical", "pass"),
    row("h1", "minor", "fail"),
    row("lorem", "prohibited", "fail"),
    row("vitals", "critical", "error"),
    row("note", "info", "error"),
  ];

  test("by default: required and prohibited failures block, errors at a blocking severity are undecided, the rest warn", () => {
    expect(passPolicy(rows)).toEqual({
      blockedByRequired: true,
      blockedByProhibited: true,
      blockingRequired: ["title"],
      blockingProhibited: ["lorem"],
      blocked: true,
      undecided: ["vitals"],
      warnings: ["h1", "note"],
      decision: "blocked",
    });
  });

  test("hosted names and status rows decide the same as Assay names and verdict rows", () => {
    const hosted = rows.map((r) => ({
      validationId: r.validationId,
      severity: policySeverity(r.severity),
      status: "verdict" in r ? r.verdict : r.status,
    }));
    expect(passPolicy(hosted)).toEqual(passPolicy(rows));
  });

  test("a lower threshold blocks more; error makes blocking errors block", () => {
    expect(passPolicy(rows, "minor").blockingRequired).toEqual(["title", "h1"]);
    expect(passPolicy(rows, "info,error")).toMatchObject({
      blockingRequired: ["title", "h1", "vitals", "note"],
      undecided: [],
      warnings: [],
    });
    expect(passPolicy(rows, "critical")).toMatchObject({
      blockedByRequired: false,
      blockedByProhibited: true,
      blockingRequired: [],
      blockingProhibited: ["lorem"],
      warnings: ["title", "h1", "note"],
    });
    expect(passPolicy(rows, parseThreshold("prohibited"))).toMatchObject({
      blockingRequired: [],
      blockingProhibited: ["lorem"],
      undecided: [],
    });
  });

  test("no blocking failure: undecided when a blocking check errored, else pass (warnings do not block)", () => {
    expect(passPolicy([row("a", "major", "pass"), row("b", "major", "error")]).decision).toBe("undecided");
    expect(passPolicy([row("a", "major", "pass"), row("b", "minor", "fail"), row("c", "info", "error")])).toMatchObject(
      { decision: "pass", blocked: false, warnings: ["b", "c"] },
    );
    expect(passPolicy([]).decision).toBe("pass");
  });

  test("nothing blocks: blockedByRequired and blockedByProhibited are false, not empty lists (a client tests them for truth)", () => {
    const clean = passPolicy([row("a", "major", "pass"), row("b", "prohibited", "pass"), row("c", "minor", "fail")]);
    expect(clean).toMatchObject({
      blockedByRequired: false,
      blockedByProhibited: false,
      blockingRequired: [],
      blockingProhibited: [],
      decision: "pass",
    });
    expect(Boolean(clean.blockedByRequired || clean.blockedByProhibited)).toBe(false);
  });
});

describe("deciding a job's JSON", () => {
  const job = (over: Partial<DecidableJob>): DecidableJob => ({ status: "completed", results: [], ...over });
  const results: DecidableJob["results"] = [
    { validationId: "title", severity: "major", verdict: "fail", policySeverity: "required" },
    { validationId: "lorem", severity: "critical", verdict: "fail", policySeverity: "prohibited" },
    { validationId: "h1", severity: "minor", verdict: "fail" },
  ];

  test("result rows at their Assay severity (finer for thresholds), prohibited kept", () => {
    expect(decideJob(job({ results }))).toMatchObject({
      blockedByRequired: true,
      blockingRequired: ["title"],
      blockedByProhibited: true,
      blockingProhibited: ["lorem"],
      warnings: ["h1"],
      decision: "blocked",
    });
    expect(decideJob(job({ results }), "critical")).toMatchObject({
      blockedByRequired: false,
      blockingRequired: [],
      blockingProhibited: ["lorem"],
      warnings: ["title", "h1"],
    });
    expect(decideJob(job({ results: results.slice(2) }))).toMatchObject({ decision: "pass" });
  });

  test("checks with no row (an expired email job) at their hosted severity and status; expired or interrupted never passes", () => {
    const expired = job({
      status: "expired",
      interruption: { cause: "email_expired" },
      validationSets: [{ validations: [{ validationId: "subject", severity: "recommended", status: "error" }] }],
    });
    expect(decideJob(expired)).toMatchObject({ undecided: [], warnings: ["subject"], decision: "undecided" });
    expect(
      decideJob(
        job({ status: "interrupted", results: [{ validationId: "title", severity: "major", verdict: "error" }] }),
      ),
    ).toMatchObject({ undecided: ["title"], decision: "undecided" });
  });

  test("pending until the job settles", () => {
    expect(
      decideJob(
        job({
          status: "pending",
          validationSets: [{ validations: [{ validationId: "subject", severity: "required", status: "pending" }] }],
        }),
      ).decision,
    ).toBe("pending");
    expect(decideJob(job({ status: "running" })).decision).toBe("pending");
  });
});
