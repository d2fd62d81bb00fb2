import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { expectError, htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * Every 400 code a job body can trigger, through HTTP, against both POST /api/jobs/estimate and
 * POST /api/jobs. Each refusal must carry the catalogued error body and leave the organization
 * untouched: the balance stays at the signup grant and no job exists.
 *
 * Validation order: PLAN_STEPS, the planner's step table in src/domain/job-request.ts (test/domain/planner.test.ts
 * drives each step on its own).
 *
 * Step 21 (clients) is for email validations only: a functional check answers CLIENT_SELECTION_RENDERLESS_CHECK,
 * a visual check the job skips (it needs parameters the body does not give) CLIENT_SELECTION_NOT_IN_JOB, a
 * webpage visual check that runs INVALID_CLIENT_SELECTION, and a visual email check naming a client that is not
 * in the render catalog for that form factor UNKNOWN_EMAIL_CLIENT. CLIENT_SELECTION_NOT_IN_JOB is tested on
 * webpage checks only: no visual email check needs parameters, so none is ever skipped.
 */

const PAGE = '<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>';
const ok = (extra: Record<string, unknown> = {}) => htmlJob(PAGE, ["page-title"], extra);
const urlJob = (url: string, extra: Record<string, unknown> = {}) => ({
  type: "url",
  url,
  validations: ["page-title"],
  ...extra,
});
const ENDPOINTS = ["/api/jobs/estimate", "/api/jobs"] as const;
/** Hooks start servers and Chromium: give them the same room as tests (`--timeout` covers tests only). */
const HOOK_TIMEOUT = 120_000;
// Bun 1.4 ignores bunfig's [test] timeout; so that this file also runs alone (without npm test's --timeout), set the room here.
setDefaultTimeout(120_000);
const GRANT = 1000;

let server: TestServer;
let key: string;
let catalog: Map<string, number>;

beforeAll(async () => {
  server = await startServer();
  ({ apiKey: key } = await server.signup());
  const errors = await server.api("GET", "/api/errors");
  catalog = new Map(errors.body.errors.map((e: { code: string; httpStatus: number }) => [e.code, e.httpStatus]));
}, HOOK_TIMEOUT);
afterAll(() => server.stop(), HOOK_TIMEOUT);

async function expectNothingChargedOrCreated() {
  const credits = await server.api("GET", "/api/credits", { key });
  expect(credits.status).toBe(200);
  expect(credits.body.balance).toBe(GRANT);
  expect(credits.body.ledger.filter((e: { type: string }) => e.type !== "CreditsGranted")).toEqual([]);
  const jobs = await server.api("GET", "/api/jobs", { key });
  expect(jobs.status).toBe(200);
  expect(jobs.body.jobs).toEqual([]);
}

interface Case {
  name: string;
  code: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  details?: (details: any) => void;
}

const cases: Case[] = [
  // 1 and 8: INVALID_REQUEST_BODY
  {
    name: "malformed JSON",
    code: "INVALID_REQUEST_BODY",
    rawBody: '{"type": "static_html", ',
    contentType: "application/json",
  },
  { name: "empty body", code: "INVALID_REQUEST_BODY", rawBody: "", contentType: "application/json" },
  {
    name: "wrong content type",
    code: "INVALID_REQUEST_BODY",
    rawBody: JSON.stringify(ok()),
    contentType: "text/plain",
    details: (d) => expect(d.contentType).toBe("text/plain"),
  },
  {
    name: "form-encoded body",
    code: "INVALID_REQUEST_BODY",
    rawBody: "type=static_html",
    contentType: "application/x-www-form-urlencoded",
  },
  { name: "array body", code: "INVALID_REQUEST_BODY", body: [ok()] },
  { name: "string body", code: "INVALID_REQUEST_BODY", body: "static_html" },
  { name: "null body", code: "INVALID_REQUEST_BODY", body: null },
  { name: "number body", code: "INVALID_REQUEST_BODY", body: 42 },
  {
    name: "html of the wrong type",
    code: "INVALID_REQUEST_BODY",
    body: { type: "static_html", html: 5, baseUrl: "https://example.com/", validations: ["page-title"] },
    details: (d) => expect(d.problems[0].path).toBe("html"),
  },
  {
    name: "validations not an array",
    code: "INVALID_REQUEST_BODY",
    body: htmlJob(PAGE, undefined, { validations: "page-title" }),
    details: (d) => expect(d.problems[0].path).toBe("validations"),
  },
  {
    name: "a validations entry that is a number",
    code: "INVALID_REQUEST_BODY",
    body: htmlJob(PAGE, [5]),
    details: (d) => expect(d.problems[0].path).toBe("validations[0]"),
  },
  {
    name: "detail of the wrong type",
    code: "INVALID_REQUEST_BODY",
    body: ok({ detail: 5 }),
    details: (d) => expect(d.problems.map((p: { path: string }) => p.path)).toContain("detail"),
  },
  {
    name: "an unknown key inside a validation entry",
    code: "INVALID_REQUEST_BODY",
    body: htmlJob(PAGE, [{ id: "page-title", weight: 3 }]),
  },
  // 2
  {
    name: "the old line-array shape",
    code: "LEGACY_REQUEST_SHAPE",
    body: { lines: [{ url: "https://example.com/", checks: ["page-title"] }] },
    details: (d) => {
      expect(typeof d.hint).toBe("object");
      expect(d.hint.legacyFieldsSeen).toEqual(["lines"]);
      expect(d.hint.checks).toBe("validations");
    },
  },
  {
    name: "no top-level type",
    code: "LEGACY_REQUEST_SHAPE",
    body: { url: "https://example.com/", validations: ["page-title"] },
    details: (d) => expect(d.hint.type).toContain("url"),
  },
  {
    name: "old field names without type",
    code: "LEGACY_REQUEST_SHAPE",
    body: { targetUrl: "https://example.com/", setId: "web-essentials" },
    details: (d) => {
      expect(d.hint.legacyFieldsSeen.sort()).toEqual(["setId", "targetUrl"]);
      expect(d.hint.targetUrl).toBe("url");
      expect(d.hint.setId).toBe("validationSetId");
    },
  },
  {
    name: "lines alongside a type",
    code: "LEGACY_REQUEST_SHAPE",
    body: { type: "url", lines: [{ url: "https://example.com/" }] },
    details: (d) => expect(d.hint).toBeDefined(),
  },
  // 3
  {
    name: "unknown top-level fields",
    code: "UNKNOWN_FIELD",
    body: ok({ colour: "red", jobId: "job_chosen_by_caller" }),
    details: (d) => expect([...d.unknownFields].sort()).toEqual(["colour", "jobId"]),
  },
  // 4
  {
    name: "an unsupported job type",
    code: "VALIDATION_TYPE_UNSUPPORTED",
    body: { ...ok(), type: "pdf" },
    details: (d) => expect(d.value).toBe("pdf"),
  },
  { name: "a non-string job type", code: "VALIDATION_TYPE_UNSUPPORTED", body: { ...ok(), type: 7 } },
  // 5
  {
    name: "an array of set ids",
    code: "ONE_VALIDATION_SET_PER_JOB",
    body: htmlJob(PAGE, undefined, { validationSetId: ["web-essentials", "web-essentials"] }),
    details: (d) => expect(d.setCount).toBe(2),
  },
  {
    name: "a validationSets array alone",
    code: "ONE_VALIDATION_SET_PER_JOB",
    body: htmlJob(PAGE, undefined, { validationSets: ["web-essentials"] }),
  },
  // 6
  {
    name: "validationSetId with a validationSets array",
    code: "VALIDATION_SET_CONFLICT",
    body: htmlJob(PAGE, undefined, { validationSetId: "web-essentials", validationSets: ["web-essentials"] }),
  },
  // 7
  {
    name: "a url and html in one job",
    code: "JOB_ACCEPTS_ONE_SUBJECT",
    body: ok({ url: "https://example.com/" }),
    details: (d) => expect(d.subjectCount).toBe(2),
  },
  {
    name: "an array of urls",
    code: "JOB_ACCEPTS_ONE_SUBJECT",
    body: urlJob("https://example.com/", {
      url: ["https://example.com/a", "https://example.com/b", "https://example.com/c"],
    }),
    details: (d) => expect(d.subjectCount).toBe(3),
  },
  {
    name: "an email job with a url",
    code: "JOB_ACCEPTS_ONE_SUBJECT",
    body: { type: "email", url: "https://example.com/", validations: ["page-title"] },
    details: (d) => expect(d.subjectCount).toBe(2),
  },
  // 9
  {
    name: "an unknown detail",
    code: "INVALID_ENUM_VALUE",
    body: ok({ detail: "loud" }),
    details: (d) => {
      expect(d.field).toBe("detail");
      expect(d.value).toBe("loud");
      expect(d.allowedValues).toEqual(["brief", "verbose"]);
    },
  },
  {
    name: "an unknown severity",
    code: "INVALID_ENUM_VALUE",
    body: htmlJob(PAGE, [{ id: "page-title", severity: "urgent" }]),
    details: (d) => {
      expect(d.field).toBe("validations[0].severity");
      expect(d.allowedValues).toContain("critical");
    },
  },
  // 10
  {
    name: "an entry object without id",
    code: "MISSING_REQUIRED_FIELD",
    body: htmlJob(PAGE, ["page-title", { severity: "major" }]),
    details: (d) => expect(d.field).toBe("validations[1].id"),
  },
  // 11
  {
    name: "an unknown capture size",
    code: "INVALID_CAPTURE_SIZE",
    body: ok({ captureSizes: ["desktop-md", "huge"] }),
    details: (d) => {
      expect(d.invalid).toEqual(["huge"]);
      expect(d.allowedValues).toEqual(["mobile-sm", "tablet-portrait", "desktop-md"]);
    },
  },
  // 12
  {
    name: "a url job without url",
    code: "JOB_SUBJECT_REQUIRED",
    body: { type: "url", validations: ["page-title"] },
    details: (d) => expect(d.field).toBe("url"),
  },
  {
    name: "a url job with a blank url",
    code: "JOB_SUBJECT_REQUIRED",
    body: urlJob("   "),
    details: (d) => expect(d.field).toBe("url"),
  },
  {
    name: "a static_html job without html",
    code: "JOB_SUBJECT_REQUIRED",
    body: { type: "static_html", baseUrl: "https://example.com/", validations: ["page-title"] },
    details: (d) => expect(d.field).toBe("html"),
  },
  {
    name: "a static_html job without baseUrl",
    code: "JOB_SUBJECT_REQUIRED",
    body: { type: "static_html", html: PAGE, validations: ["page-title"] },
    details: (d) => expect(d.field).toBe("baseUrl"),
  },
  // 13
  { name: "neither validations nor a set", code: "NO_VALIDATIONS_SELECTED", body: htmlJob(PAGE, undefined) },
  { name: "an empty validations list", code: "NO_VALIDATIONS_SELECTED", body: htmlJob(PAGE, []) },
  // 14
  {
    name: "an unknown set",
    code: "VALIDATION_SET_NOT_FOUND",
    body: htmlJob(PAGE, undefined, { validationSetId: "no-such-set" }),
    details: (d) => {
      expect(d.validationSetId).toBe("no-such-set");
      // Nothing is near enough to suggest.
      expect(d.suggestions).toEqual({});
    },
  },
  {
    name: "a set id with a typo: the nearest set suggested",
    code: "VALIDATION_SET_NOT_FOUND",
    body: htmlJob(PAGE, undefined, { validationSetId: "web-essential" }),
    details: (d) => expect(d.suggestions).toEqual({ "web-essential": ["web-essentials"] }),
  },
  // 15: web-essentials is a url set, so an email job naming it mismatches.
  {
    name: "a url set on an email job",
    code: "VALIDATION_SET_SUBJECT_MISMATCH",
    body: { type: "email", subject: "Welcome", validationSetId: "web-essentials" },
    details: (d) => {
      expect(d.setSubjectType).toBe("url");
      expect(d.jobSubjectType).toBe("email");
    },
  },
  {
    name: "an email set on a static_html job",
    code: "VALIDATION_SET_SUBJECT_MISMATCH",
    body: htmlJob(PAGE, undefined, { validationSetId: "marketing" }),
    details: (d) => {
      expect(d.setSubjectType).toBe("email");
      expect(d.jobSubjectType).toBe("static_html");
    },
  },
  // 16: page-title is a url check, so an email job naming it mismatches.
  {
    name: "a url check on an email job",
    code: "VALIDATION_SUBJECT_MISMATCH",
    body: { type: "email", subject: "Welcome", validations: ["page-title", "html-lang"] },
    details: (d) => {
      expect(d.mismatches.map((m: { validationId: string }) => m.validationId)).toEqual(["page-title", "html-lang"]);
      expect(d.mismatches[0].jobSubjectType).toBe("email");
      expect(d.mismatches[0].validationSubjectType).toBe("url");
    },
  },
  {
    name: "an email check on a static_html job",
    code: "VALIDATION_SUBJECT_MISMATCH",
    body: htmlJob(PAGE, ["page-title", "email-subject-length"]),
    details: (d) => {
      expect(d.mismatches).toHaveLength(1);
      expect(d.mismatches[0]).toMatchObject({
        validationId: "email-subject-length",
        validationSubjectType: "email",
        jobSubjectType: "static_html",
      });
    },
  },
  // 17
  {
    name: "an unknown validation id",
    code: "VALIDATION_NOT_RUNNABLE",
    body: htmlJob(PAGE, ["page-title", "no-such-check"]),
    details: (d) => {
      expect(d.validationIds).toEqual(["no-such-check"]);
      expect(d.paths).toEqual(["validations[1]"]);
      expect(d.suggestions).toEqual({});
    },
  },
  {
    name: "ids with typos: each one's nearest ids suggested",
    code: "VALIDATION_NOT_RUNNABLE",
    body: htmlJob(PAGE, ["page-titel", "html_lang", "alt", "single-h1"]),
    details: (d) => {
      expect(d.validationIds).toEqual(["page-titel", "html_lang", "alt"]);
      expect(d.suggestions).toEqual({
        "page-titel": ["page-title"],
        html_lang: ["html-lang"],
        alt: ["image-alt-text"],
      });
    },
  },
  {
    name: "an unknown id in an entry object",
    code: "VALIDATION_NOT_RUNNABLE",
    body: htmlJob(PAGE, [{ id: "made-up" }]),
  },
  // 18
  {
    name: "the same id with differing severity",
    code: "DUPLICATE_VALIDATION",
    body: htmlJob(PAGE, ["page-title", { id: "page-title", severity: "critical" }]),
    details: (d) => {
      expect(d.path).toBe("validations[1]");
      expect(d.validationId).toBe("page-title");
    },
  },
  {
    name: "the same id with differing parameters",
    code: "DUPLICATE_VALIDATION",
    body: htmlJob(PAGE, [
      { id: "required-text-present", parameters: { text: "Hi" } },
      { id: "required-text-present", parameters: { text: "Bye" } },
    ]),
    details: (d) => expect(d.path).toBe("validations[1]"),
  },
  // 19: one flat parameter map per job
  {
    name: "one parameter name with two values",
    code: "CONFLICTING_PARAMETERS",
    body: htmlJob(PAGE, [
      { id: "required-text-present", parameters: { text: "Hi" } },
      { id: "page-title", parameters: { text: "Bye" } },
    ]),
    details: (d) => {
      expect(d.path).toBe("validations[1]");
      expect(d.parameter).toBe("text");
    },
  },
  // 20
  {
    name: "a parameter of the wrong type",
    code: "INVALID_PARAMETER_VALUE",
    body: htmlJob(PAGE, [{ id: "required-text-present", parameters: { text: 5 } }]),
    details: (d) => {
      expect(d.parameter).toBe("text");
      expect(d.path).toBe("validations[0].parameters.text");
    },
  },
  {
    name: "an empty text parameter",
    code: "INVALID_PARAMETER_VALUE",
    body: htmlJob(PAGE, [{ id: "required-text-present", parameters: { text: "" } }]),
    details: (d) => expect(d.parameter).toBe("text"),
  },
  {
    name: "an unknown parameter name",
    code: "INVALID_PARAMETER_VALUE",
    body: htmlJob(PAGE, [{ id: "required-text-present", parameters: { text: "Hi", colour: "red" } }]),
    details: (d) => {
      expect(d.parameter).toBe("colour");
      expect(d.allowedParameters).toEqual(["text"]);
    },
  },
  // 21
  {
    name: "an empty clients object",
    code: "EMPTY_CLIENT_SELECTION",
    body: htmlJob(PAGE, [{ id: "page-title", clients: {} }]),
    details: (d) => expect(d.validationId).toBe("page-title"),
  },
  {
    name: "clients keyed by an unknown form factor",
    code: "INVALID_CLIENT_SELECTION",
    body: htmlJob(PAGE, [{ id: "page-title", clients: { watch: ["gmail"] } }]),
    details: (d) => expect(d.path).toBe("validations[0].clients.watch"),
  },
  {
    name: "clients that is not an object",
    code: "INVALID_CLIENT_SELECTION",
    body: htmlJob(PAGE, [{ id: "page-title", clients: "gmail" }]),
    details: (d) => expect(d.path).toBe("validations[0].clients"),
  },
  {
    name: "a form factor holding a string",
    code: "INVALID_CLIENT_SELECTION",
    body: htmlJob(PAGE, [{ id: "page-title", clients: { "desktop-md": "gmail" } }]),
    details: (d) => expect(d.path).toBe("validations[0].clients.desktop-md"),
  },
  {
    name: "clients on a functional check",
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    body: htmlJob(PAGE, [{ id: "page-title", clients: { "desktop-md": [] } }]),
    details: (d) => expect(d.validationId).toBe("page-title"),
  },
  {
    name: "clients on a visual check the job skips for missing parameters",
    code: "CLIENT_SELECTION_NOT_IN_JOB",
    body: htmlJob(PAGE, [{ id: "logo-usage", clients: { "mobile-sm": [] } }]),
    details: (d) => {
      expect(d.validationId).toBe("logo-usage");
      expect(d.path).toBe("validations[0].clients");
    },
  },
  {
    name: "clients on a skipped visual check beside a check that runs",
    code: "CLIENT_SELECTION_NOT_IN_JOB",
    body: htmlJob(PAGE, ["page-title", { id: "brand-colors", clients: { "desktop-md": ["gmail"] } }]),
    details: (d) => {
      expect(d.validationId).toBe("brand-colors");
      expect(d.path).toBe("validations[1].clients");
    },
  },
  {
    name: "clients on a webpage visual check that runs",
    code: "INVALID_CLIENT_SELECTION",
    body: htmlJob(PAGE, [{ id: "cta-visible", clients: { "desktop-md": ["gmail"] } }]),
    details: (d) => {
      expect(d.validationId).toBe("cta-visible");
      expect(d.path).toBe("validations[0].clients");
    },
  },
  {
    name: "clients on a configured webpage visual check of a url job",
    code: "INVALID_CLIENT_SELECTION",
    body: urlJob("https://example.com/", {
      validations: [{ id: "brand-colors", parameters: { palette: ["#0a58ca"] }, clients: { "mobile-sm": [] } }],
    }),
    details: (d) => {
      expect(d.validationId).toBe("brand-colors");
      expect(d.path).toBe("validations[0].clients");
    },
  },
  // 21, on email checks
  {
    name: "an empty clients object on a visual email check",
    code: "EMPTY_CLIENT_SELECTION",
    body: { type: "email", validations: [{ id: "email-mobile-responsive", clients: {} }] },
    details: (d) => expect(d.validationId).toBe("email-mobile-responsive"),
  },
  {
    name: "email clients keyed by an unknown form factor",
    code: "INVALID_CLIENT_SELECTION",
    body: { type: "email", validations: [{ id: "email-cta-visible", clients: { watch: ["apple-mail-ios"] } }] },
    details: (d) => expect(d.path).toBe("validations[0].clients.watch"),
  },
  {
    name: "email clients holding a string instead of an array",
    code: "INVALID_CLIENT_SELECTION",
    body: { type: "email", validations: [{ id: "email-cta-visible", clients: { "mobile-sm": "apple-mail-ios" } }] },
    details: (d) => expect(d.path).toBe("validations[0].clients.mobile-sm"),
  },
  {
    name: "email clients holding a number",
    code: "INVALID_CLIENT_SELECTION",
    body: {
      type: "email",
      validations: [{ id: "email-cta-visible", clients: { "mobile-sm": ["apple-mail-ios", 7] } }],
    },
    details: (d) => expect(d.path).toBe("validations[0].clients.mobile-sm"),
  },
  {
    name: "clients on a functional email check",
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    body: { type: "email", validations: [{ id: "email-subject-length", clients: { "mobile-sm": [] } }] },
    details: (d) => {
      expect(d.validationId).toBe("email-subject-length");
      expect(d.path).toBe("validations[0].clients");
    },
  },
  {
    name: "a mail client not in the catalog",
    code: "UNKNOWN_EMAIL_CLIENT",
    body: {
      type: "email",
      validations: [{ id: "email-mobile-responsive", clients: { "mobile-sm": ["apple-mail-ios", "hotmail-9000"] } }],
    },
    details: (d) => {
      expect(d.validationId).toBe("email-mobile-responsive");
      expect(d.unknownClients).toEqual([{ formFactor: "mobile-sm", clientId: "hotmail-9000" }]);
      expect(d.knownClients["mobile-sm"]).toContain("apple-mail-ios");
    },
  },
  {
    name: "a mail client named at a form factor it is not catalogued for",
    code: "UNKNOWN_EMAIL_CLIENT",
    body: {
      type: "email",
      validations: [
        "email-subject-length",
        {
          id: "email-layout-not-broken",
          clients: { "desktop-md": ["outlook-windows"], "mobile-sm": ["outlook-windows", "gmail-web"] },
        },
      ],
    },
    details: (d) => {
      expect(d.validationId).toBe("email-layout-not-broken");
      expect(d.path).toBe("validations[1].clients");
      expect(d.unknownClients).toEqual([
        { formFactor: "mobile-sm", clientId: "outlook-windows" },
        { formFactor: "mobile-sm", clientId: "gmail-web" },
      ]);
    },
  },
  // 22
  {
    name: "a loopback url",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("http://127.0.0.1/"),
    details: (d) => expect(d.reason).toBe("loopback"),
  },
  {
    name: "localhost",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("http://localhost:8080/"),
    details: (d) => expect(d.reason).toBe("loopback"),
  },
  {
    name: "an ftp url",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("ftp://example.com/file"),
    details: (d) => expect(d.reason).toBe("scheme"),
  },
  {
    name: "a private-network url",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("http://10.0.0.1/"),
    details: (d) => expect(d.reason).toBe("private"),
  },
  {
    name: "a link-local url",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("http://169.254.169.254/latest/meta-data/"),
    details: (d) => expect(d.reason).toBe("link-local"),
  },
  {
    name: "a relative url",
    code: "PLAYGROUND_INVALID_URL",
    body: urlJob("/just/a/path"),
    details: (d) => expect(d.reason).toBe("invalid-url"),
  },
  {
    name: "a static_html baseUrl with another scheme",
    code: "PLAYGROUND_INVALID_URL",
    body: htmlJob(PAGE, ["page-title"], { baseUrl: "file:///etc/passwd" }),
    details: (d) => {
      expect(d.field).toBe("baseUrl");
      expect(d.reason).toBe("scheme");
    },
  },

  // Order: a body with two problems gets the earlier code.
  {
    name: "order: no type beats an unknown field",
    code: "LEGACY_REQUEST_SHAPE",
    body: { url: "https://example.com/", colour: "red" },
  },
  {
    name: "order: an unknown field beats an unsupported type",
    code: "UNKNOWN_FIELD",
    body: { ...ok({ colour: "red" }), type: "pdf" },
  },
  {
    name: "order: an unsupported type beats two sets",
    code: "VALIDATION_TYPE_UNSUPPORTED",
    body: { ...ok({ validationSetId: ["a", "b"] }), type: "pdf" },
  },
  {
    name: "order: two sets beat two subjects",
    code: "ONE_VALIDATION_SET_PER_JOB",
    body: ok({ validationSetId: ["a", "b"], url: "https://example.com/" }),
  },
  {
    name: "order: two subjects beat a wrongly typed field",
    code: "JOB_ACCEPTS_ONE_SUBJECT",
    body: ok({ url: "https://example.com/", detail: 5 }),
  },
  {
    name: "order: a wrongly typed field beats a bad enum value",
    code: "INVALID_REQUEST_BODY",
    body: htmlJob(PAGE, [{ id: "page-title", severity: "urgent" }], { subject: 5 }),
  },
  {
    name: "order: a bad enum value beats a missing id",
    code: "INVALID_ENUM_VALUE",
    body: htmlJob(PAGE, [{ severity: "major" }], { detail: "loud" }),
  },
  {
    name: "order: a missing id beats a bad capture size",
    code: "MISSING_REQUIRED_FIELD",
    body: htmlJob(PAGE, [{ severity: "major" }], { captureSizes: ["huge"] }),
  },
  {
    name: "order: a bad capture size beats a missing subject",
    code: "INVALID_CAPTURE_SIZE",
    body: { type: "url", validations: ["page-title"], captureSizes: ["huge"] },
  },
  { name: "order: a missing subject beats no validations", code: "JOB_SUBJECT_REQUIRED", body: { type: "url" } },
  {
    name: "order: an unknown set beats an unknown check",
    code: "VALIDATION_SET_NOT_FOUND",
    body: htmlJob(PAGE, ["no-such-check"], { validationSetId: "no-such-set" }),
  },
  {
    name: "order: a set mismatch beats a check mismatch",
    code: "VALIDATION_SET_SUBJECT_MISMATCH",
    body: { type: "email", validationSetId: "web-essentials", validations: ["page-title"] },
  },
  {
    name: "order: an unknown check beats a duplicate",
    code: "VALIDATION_NOT_RUNNABLE",
    body: htmlJob(PAGE, ["page-title", { id: "page-title", severity: "info" }, "no-such-check"]),
  },
  {
    name: "order: a duplicate beats a bad parameter",
    code: "DUPLICATE_VALIDATION",
    body: htmlJob(PAGE, [
      { id: "required-text-present", parameters: { text: 5 } },
      "page-title",
      { id: "page-title", severity: "info" },
    ]),
  },
  {
    name: "order: a bad parameter beats an empty clients object",
    code: "INVALID_PARAMETER_VALUE",
    body: htmlJob(PAGE, [
      { id: "required-text-present", parameters: { text: 5 } },
      { id: "page-title", clients: {} },
    ]),
  },
  {
    name: "order: a client selection problem beats a loopback url",
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    body: urlJob("http://127.0.0.1/", { validations: [{ id: "page-title", clients: { "mobile-sm": ["gmail"] } }] }),
  },
  {
    name: "order: clients on a skipped check beat a loopback url",
    code: "CLIENT_SELECTION_NOT_IN_JOB",
    body: urlJob("http://127.0.0.1/", { validations: [{ id: "logo-usage", clients: { "mobile-sm": [] } }] }),
  },
  {
    name: "order: clients on a webpage visual check beat a loopback url",
    code: "INVALID_CLIENT_SELECTION",
    body: urlJob("http://127.0.0.1/", { validations: [{ id: "tap-targets", clients: { "mobile-sm": [] } }] }),
  },
  {
    name: "order: clients are checked entry by entry (a functional check's clients, first, answer)",
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    body: htmlJob(PAGE, [
      { id: "page-title", clients: { "mobile-sm": [] } },
      { id: "logo-usage", clients: { "mobile-sm": [] } },
    ]),
  },
  {
    name: "order: an unknown check beats a loopback url",
    code: "VALIDATION_NOT_RUNNABLE",
    body: urlJob("http://127.0.0.1/", { validations: ["no-such-check"] }),
  },
  {
    name: "order: a bad parameter beats an unknown mail client",
    code: "INVALID_PARAMETER_VALUE",
    body: {
      type: "email",
      validations: [
        { id: "email-subject-length", parameters: { maxLength: 5 } },
        { id: "email-cta-visible", clients: { "mobile-sm": ["hotmail-9000"] } },
      ],
    },
  },
  {
    name: "order: an unknown mail client beats a later entry's clients on a functional check (entry by entry)",
    code: "UNKNOWN_EMAIL_CLIENT",
    body: {
      type: "email",
      validations: [
        { id: "email-cta-visible", clients: { "mobile-sm": ["hotmail-9000"] } },
        { id: "email-subject-length", clients: { "mobile-sm": [] } },
      ],
    },
  },
  {
    name: "order: a functional check's clients beat a later entry's unknown mail client",
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    body: {
      type: "email",
      validations: [
        { id: "email-subject-length", clients: { "mobile-sm": [] } },
        { id: "email-cta-visible", clients: { "mobile-sm": ["hotmail-9000"] } },
      ],
    },
  },
  {
    name: "order: the shape of an entry's clients beats its unknown ids",
    code: "INVALID_CLIENT_SELECTION",
    body: {
      type: "email",
      validations: [{ id: "email-cta-visible", clients: { "mobile-sm": ["hotmail-9000"], watch: [] } }],
    },
  },
];

describe.each(ENDPOINTS)("POST %s refuses a bad body before pricing", (endpoint) => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const res = await server.api("POST", endpoint, {
      key,
      ...(c.rawBody !== undefined
        ? { rawBody: c.rawBody, headers: { "content-type": c.contentType ?? "application/json" } }
        : { rawBody: JSON.stringify(c.body), headers: { "content-type": c.contentType ?? "application/json" } }),
    });
    expectError(res, 400, c.code);
    if (c.details) {
      expect(res.body.details).toBeDefined();
      c.details(res.body.details);
    }
    await expectNothingChargedOrCreated();
  });
});

test("every job-body code tested here is in the catalog served at GET /api/errors with status 400", () => {
  for (const code of new Set(cases.map((c) => c.code))) expect(catalog.get(code)).toBe(400);
});

test("the catalog holds every job-body code of the contract", () => {
  for (const code of ["CLIENT_SELECTION_NOT_IN_JOB", "UNKNOWN_EMAIL_CLIENT"]) expect(catalog.get(code)).toBe(400);
});

// Estimates only: these must price, not refuse (a run would spend the credits the refusal tests count).
describe("POST /api/jobs/estimate accepts what the refusals are near to", () => {
  test("identical duplicates collapse into one line", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(PAGE, ["page-title", "page-title", { id: "page-title" }]),
    });
    expect(res.status).toBe(200);
    expect(res.body.lines).toEqual([{ validationId: "page-title", credits: 1 }]);
    expect(res.body.totalCredits).toBe(1);
  });
  test("one parameter value shared by two identical entries is no conflict", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(PAGE, [
        { id: "required-text-present", parameters: { text: "Hi" } },
        { id: "required-text-present", parameters: { text: "Hi" } },
      ]),
    });
    expect(res.status).toBe(200);
    expect(res.body.lines).toEqual([{ validationId: "required-text-present", credits: 1 }]);
  });
  test("a visual check without its parameters (and without clients) is skipped, not refused", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(PAGE, ["page-title", "logo-usage"]),
    });
    expect(res.status).toBe(200);
    expect(res.body.lines).toEqual([{ validationId: "page-title", credits: 1 }]);
    expect(res.body.skipped_validations.map((s: { validationId: string }) => s.validationId)).toEqual(["logo-usage"]);
  });
  test("known mail clients are accepted and priced per render (an empty array: the native client)", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: {
        type: "email",
        validations: [
          { id: "email-cta-visible", clients: { "mobile-sm": [], "desktop-md": ["outlook-windows", "gmail-web"] } },
        ],
      },
    });
    expect(res.status).toBe(200);
    // apple-mail-ios 1, outlook-windows 1 + 1 extra, gmail-web 1.
    expect(res.body.lines).toEqual([{ validationId: "email-cta-visible", credits: 4 }]);
    await expectNothingChargedOrCreated();
  });
  test("a JSON content type with a charset is accepted", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      rawBody: JSON.stringify(ok()),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(200);
    await expectNothingChargedOrCreated();
  });
});

test("an unknown route is a catalogued JSON 404", async () => {
  const res = await server.api("GET", "/api/no-such-thing", { key });
  expectError(res, 404, "ROUTE_NOT_FOUND");
});

test("authentication is checked before the body: a bad body without a key is AUTH_REQUIRED", async () => {
  for (const endpoint of ENDPOINTS) {
    const res = await server.api("POST", endpoint, {
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 401, "AUTH_REQUIRED");
  }
  await expectNothingChargedOrCreated();
});
