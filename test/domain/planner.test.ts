import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JOB_REQUEST_ERRORS, PLAN_STEPS, planJob } from "../../src/domain/job-request";
import { PlanDraft } from "../../src/domain/planned-job";
import { priceJob } from "../../src/domain/pricing";
import { NetworkGuard } from "../../src/capture/network-guard";
import { AppError } from "../../src/errors/app-error";
import { errorCatalog, type ErrorCode } from "../../src/errors/catalog";
import { validationSets } from "../../src/catalog/sets";
import { JOB_RULES } from "../../src/services/job-request-description";
import { htmlJob, ROOT } from "../support/harness";

/** The planner's step table, driven directly: no server, no browser, no DNS (example.com answers a fixed public address). */

const guard = new NetworkGuard(false, async () => [{ address: "93.184.215.14", family: 4 }]);
const PAGE = '<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>';
const ok = (extra: Record<string, unknown> = {}) => htmlJob(PAGE, ["page-title"], extra);
const emailSet = validationSets.find((s) => s.subjectType === "email")!.id;

/** Per step, a body that passes every earlier step and is refused by this one, with the code it gets. */
const REFUSED_AT: Record<string, [unknown, ErrorCode]> = {
  "json-object": [[], "INVALID_REQUEST_BODY"],
  "unified-shape": [{ url: "https://example.com/", checks: ["page-title"] }, "LEGACY_REQUEST_SHAPE"],
  "known-fields": [ok({ colour: "red" }), "UNKNOWN_FIELD"],
  "job-type": [{ type: "pdf" }, "VALIDATION_TYPE_UNSUPPORTED"],
  "one-set": [ok({ validationSetId: ["web-essentials", "seo"] }), "ONE_VALIDATION_SET_PER_JOB"],
  "set-not-combined": [ok({ validationSetId: "web-essentials", validationSets: ["seo"] }), "VALIDATION_SET_CONFLICT"],
  "one-subject": [
    { type: "url", url: ["https://example.com/a", "https://example.com/b"], validations: ["page-title"] },
    "JOB_ACCEPTS_ONE_SUBJECT",
  ],
  "field-types": [ok({ detail: 3 }), "INVALID_REQUEST_BODY"],
  "enum-values": [ok({ detail: "loud" }), "INVALID_ENUM_VALUE"],
  "required-fields": [htmlJob(PAGE, [{ severity: "major" }]), "MISSING_REQUIRED_FIELD"],
  "capture-sizes": [ok({ captureSizes: ["huge"] }), "INVALID_CAPTURE_SIZE"],
  "subject-given": [{ type: "static_html", html: PAGE, validations: ["page-title"] }, "JOB_SUBJECT_REQUIRED"],
  "something-selected": [htmlJob(PAGE, undefined), "NO_VALIDATIONS_SELECTED"],
  "set-exists": [htmlJob(PAGE, undefined, { validationSetId: "nope" }), "VALIDATION_SET_NOT_FOUND"],
  "set-subject": [htmlJob(PAGE, undefined, { validationSetId: emailSet }), "VALIDATION_SET_SUBJECT_MISMATCH"],
  "validation-subject": [htmlJob(PAGE, ["email-subject-length"]), "VALIDATION_SUBJECT_MISMATCH"],
  runnable: [htmlJob(PAGE, ["nope"]), "VALIDATION_NOT_RUNNABLE"],
  "no-differing-duplicates": [
    htmlJob(PAGE, [{ id: "page-title", severity: "major" }, "page-title"]),
    "DUPLICATE_VALIDATION",
  ],
  "one-parameter-map": [
    htmlJob(PAGE, [
      { id: "required-text-present", parameters: { text: "a" } },
      { id: "forbidden-text-absent", parameters: { text: "b" } },
    ]),
    "CONFLICTING_PARAMETERS",
  ],
  "parameter-values": [htmlJob(PAGE, [{ id: "page-title", parameters: { size: 1 } }]), "INVALID_PARAMETER_VALUE"],
  "client-selections": [
    { type: "email", validations: [{ id: "email-mobile-responsive", clients: { "mobile-sm": ["nope"] } }] },
    "UNKNOWN_EMAIL_CLIENT",
  ],
  "engine-selections": [htmlJob(PAGE, [{ id: "page-title", engines: ["webkit"] }]), "ENGINE_SELECTION_UNSUPPORTED"],
  "public-url": [{ type: "url", url: "http://127.0.0.1/", validations: ["page-title"] }, "PLAYGROUND_INVALID_URL"],
};

async function refusal(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

test("the steps are numbered by their place, named once, and refuse with catalogued codes", () => {
  expect(PLAN_STEPS.map((s) => s.step)).toEqual(PLAN_STEPS.map((_, i) => i + 1));
  expect(new Set(PLAN_STEPS.map((s) => s.name)).size).toBe(PLAN_STEPS.length);
  const catalogued = new Set(errorCatalog.map((e) => e.code));
  for (const s of PLAN_STEPS) {
    expect(s.codes.length).toBeGreaterThan(0);
    for (const code of s.codes) expect(catalogued.has(code)).toBe(true);
    expect(s.rule).not.toContain("\n");
  }
  expect(Object.keys(REFUSED_AT)).toEqual(PLAN_STEPS.map((s) => s.name));
});

for (const s of PLAN_STEPS) {
  test(`step ${s.step} (${s.name}) refuses what the steps before it let through`, async () => {
    const [body, code] = REFUSED_AT[s.name]!;
    const draft = new PlanDraft(body, guard);
    for (const earlier of PLAN_STEPS.slice(0, s.step - 1)) await earlier.check(draft);
    const refused = await refusal(() => s.check(draft));
    expect(refused.code).toBe(code);
    expect(s.codes).toContain(refused.code);
    const whole = await refusal(() => planJob(body, guard));
    expect([whole.code, whole.message, whole.details]).toEqual([refused.code, refused.message, refused.details]);
  });
}

test("JOB_REQUEST_ERRORS is every step's codes, once each, in step order", () => {
  expect(JOB_REQUEST_ERRORS).toEqual([...new Set(PLAN_STEPS.flatMap((s) => s.codes))]);
});

test("docs/jobs.md's validation order names the steps' codes in the table's order", () => {
  const page = readFileSync(join(ROOT, "docs", "jobs.md"), "utf8");
  const start = page.indexOf("The order of checks (the first failing one answers");
  expect(start).toBeGreaterThan(0);
  const paragraph = page.slice(start, page.indexOf("\n\n", start));
  const named = [...paragraph.matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1]);
  expect(named).toEqual(PLAN_STEPS.flatMap((s) => s.codes));
});

test("describe_job_request's rules carry every step, in order", () => {
  const order = JOB_RULES.find((r) => r.startsWith("The checks, in order"))!;
  let at = 0;
  for (const s of PLAN_STEPS) {
    const found = order.indexOf(`${s.step}. ${s.rule}`, at);
    expect(found).toBeGreaterThanOrEqual(at);
    at = found;
  }
});

test("a plan passes every step and is priced by priceJob: catalog prices, renders for a visual email check", async () => {
  const plan = await planJob(
    {
      type: "email",
      validations: [
        "email-subject-length",
        "email-layout-not-broken",
        { id: "email-cta-visible", clients: { "desktop-md": ["outlook-windows", "gmail-web"] } },
      ],
    },
    guard,
  );
  // email-layout-not-broken: the native defaults of mobile-sm and desktop-md, one credit each; email-cta-visible:
  // outlook-windows (an extra-credit client, two) and gmail-web (one).
  expect(priceJob(plan.run)).toEqual({
    lines: [
      { validationId: "email-subject-length", credits: 1 },
      { validationId: "email-layout-not-broken", credits: 2 },
      { validationId: "email-cta-visible", credits: 3 },
    ],
    totalCredits: 6,
  });
  expect(plan.run.map((v) => v.credits)).toEqual([1, 2, 3]);
  expect(plan.totalCredits).toBe(6);
  const web = await planJob(ok({ validations: ["page-title", "layout-not-broken"] }), guard);
  expect([web.run.map((v) => v.credits), web.totalCredits]).toEqual([[1, 2], 3]);
});
