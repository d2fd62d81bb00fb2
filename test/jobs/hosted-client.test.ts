import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { expectError, htmlJob, startServer, type TestServer } from "../support/harness";
import { decideJob } from "../../src/domain/pass-policy";

/**
 * The hosted service's own clients against Assay (issue 11, section 2). HostedClient below is written from that
 * contract alone, not from Assay's code: POST /api/jobs, poll GET /api/jobs/{jobId} (bare or as { job }), decide
 * from the job. It must decide pass, blocked and undecided correctly against a real server, and agree with
 * Assay's own decision (overallPassPolicy.decision, and passPolicy over the result rows as the CLI reads them).
 */

setDefaultTimeout(120_000);

type Decision = "pass" | "blocked" | "undecided";
type HostedSeverity = "required" | "recommended" | "optional" | "prohibited";
interface HostedJob {
  jobId: string;
  status: string;
  overallPassPolicy: { blockedByRequired: boolean; blockedByProhibited: boolean };
  validationSets: Array<{
    validations: Array<{
      validationId: string;
      severity: HostedSeverity;
      status: "pass" | "fail" | "error" | "pending";
    }>;
    failuresBySeverity: Record<HostedSeverity, string[]>;
  }>;
  results: Array<{
    validationId: string;
    status: "pass" | "fail" | "error";
    captureSizeId?: string;
    captureClientId?: string;
  }>;
  emailCapture?: { testEmail: string; captureMode: string; captureStatus: string; expiresAt: string };
  interruption?: {
    cause: string;
    message: string;
    affectedValidationIds: string[];
    refund: { settled: boolean; refundedCredits: number };
  };
  skipped_validations: Array<{ validationId: string; reasonCode: string }>;
}

class HostedClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const parsed = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed;
  }

  /** The job, whichever way it comes: bare or as { job }. */
  private static unwrap(body: any): HostedJob {
    return (body.job ?? body) as HostedJob;
  }

  async create(body: unknown): Promise<HostedJob> {
    return HostedClient.unwrap(await this.call("POST", "/api/jobs", body));
  }

  async get(jobId: string): Promise<HostedJob> {
    return HostedClient.unwrap(await this.call("GET", `/api/jobs/${encodeURIComponent(jobId)}`));
  }

  async waitFor(jobId: string, timeoutMs = 30_000): Promise<HostedJob> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.get(jobId);
      if (job.status !== "pending" && job.status !== "running" && job.status !== "queued") return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status}`);
      await Bun.sleep(100);
    }
  }

  /**
   * The contract's rule: a failed required check or a found prohibited thing blocks (the two flags, tested for
   * truth as the hosted CI client does); an interruption or a blocking check that errored leaves it open.
   */
  static decide(job: HostedJob): Decision {
    const p = job.overallPassPolicy;
    if (p.blockedByRequired || p.blockedByProhibited) return "blocked";
    if (job.interruption) return "undecided";
    const rows = job.validationSets.flatMap((s) => s.validations);
    if (rows.some((v) => v.status === "error" && (v.severity === "required" || v.severity === "prohibited")))
      return "undecided";
    return "pass";
  }

  async run(body: unknown): Promise<{ job: HostedJob; decision: Decision }> {
    const created = await this.create(body);
    const job = await this.waitFor(created.jobId);
    return { job, decision: HostedClient.decide(job) };
  }
}

const GOOD = `<!doctype html><html lang="en"><head><title>Spring sale</title>
<meta name="description" content="Everything in the spring range is twenty percent off until Sunday.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Spring sale</h1><h2>Shoes</h2><p>Free returns within 30 days.</p><img src="/a.png" alt="A red shoe"></body></html>`;
// No description, two h1s, a skipped heading level.
const BAD = `<!doctype html><html lang="en"><head><title>Sale</title></head><body><h1>One</h1><h1>Two</h1><h4>Deep</h4><p>Hello world</p></body></html>`;
const LOREM = `<!doctype html><html lang="en"><head><title>Draft</title></head><body><h1>Draft</h1><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p></body></html>`;

let server: TestServer;
let target: ReturnType<typeof Bun.serve>;
let apiKey: string;
let client: HostedClient;

beforeAll(async () => {
  // Loopback opened for the url job that will not load; a three-second email window for the expired email job.
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1", ASSAY_EMAIL_WINDOW_SECONDS: "3" });
  // /down answers 500 (the page that will not load); any other path, the clean page.
  target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      new URL(req.url).pathname === "/down"
        ? new Response("<h1>Internal Server Error</h1>", { status: 500, headers: { "content-type": "text/html" } })
        : new Response(GOOD, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  apiKey = (await server.signup()).apiKey;
  client = new HostedClient(server.baseUrl, apiKey);
}, 120_000);
afterAll(async () => {
  target.stop(true);
  await server.stop();
}, 120_000);

/** The same job through the harness (its body checked against the Job schema), and Assay's own decisions about it. */
async function assayAgrees(job: HostedJob, decision: Decision) {
  const res = await server.api("GET", `/api/jobs/${job.jobId}`, { key: apiKey });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(job);
  expect(res.body.overallPassPolicy.decision).toBe(decision);
  // What our CLI decides from the same JSON (decideJob under the default threshold): the same lists, the same decision.
  const { blocked, ...cli } = decideJob(res.body);
  const { threshold, ...policy } = res.body.overallPassPolicy;
  expect(cli).toEqual(policy);
  expect(blocked).toBe(decision === "blocked");
}

describe("a client written from the hosted contract decides from the job alone", () => {
  test("pass: a clean page under a published set plus a check of its own; each source, severity, status and render", async () => {
    const { job, decision } = await client.run(
      htmlJob(GOOD, ["no-horizontal-overflow"], { validationSetId: "web-essentials", captureSizes: ["mobile-sm"] }),
    );
    expect(decision).toBe("pass");
    expect(job.status).toBe("completed");
    expect(job.validationSets).toHaveLength(2);
    const [set, own] = job.validationSets;
    expect(own).toMatchObject({
      validationSetId: null,
      validations: [{ validationId: "no-horizontal-overflow", severity: expect.any(String), status: "pass" }],
    });
    expect(job.results.find((r) => r.validationId === "no-horizontal-overflow")).toMatchObject({
      captureSizeId: "mobile-sm",
    });
    expect(job.results.find((r) => r.validationId === "page-title")).not.toHaveProperty("captureSizeId");
    expect((set as any).validationSetId).toBe("web-essentials");
    expect(set!.validations.map((v) => v.status).every((s) => s === "pass")).toBe(true);
    expect(set!.validations.find((v) => v.validationId === "page-title")).toEqual({
      validationId: "page-title",
      severity: "required",
      status: "pass",
    });
    expect(set!.failuresBySeverity).toEqual({ required: [], recommended: [], optional: [], prohibited: [] });
    expect(job.results.every((r) => r.status === "pass")).toBe(true);
    await assayAgrees(job, "pass");
  });

  test("pass with warnings: failures of recommended and optional checks are reported, not blocking", async () => {
    const { job, decision } = await client.run(
      htmlJob(BAD, [
        "page-title",
        { id: "single-h1", severity: "recommended" },
        { id: "heading-order", severity: "optional" },
      ]),
    );
    expect(decision).toBe("pass");
    expect(job.validationSets[0]!.failuresBySeverity).toEqual({
      required: [],
      recommended: ["single-h1"],
      optional: ["heading-order"],
      prohibited: [],
    });
    expect((job.overallPassPolicy as any).warnings).toEqual(["single-h1", "heading-order"]);
    await assayAgrees(job, "pass");
  });

  test('blocked by required: severity "required" is accepted, and its failure blocks', async () => {
    const { job, decision } = await client.run(
      htmlJob(BAD, [{ id: "single-h1", severity: "required" }, "meta-description"]),
    );
    expect(decision).toBe("blocked");
    expect(job.overallPassPolicy).toMatchObject({
      blockedByRequired: true,
      blockedByProhibited: false,
      blockingRequired: ["single-h1"],
      blockingProhibited: [],
    });
    expect(job.validationSets[0]!.validations).toEqual([
      { validationId: "single-h1", severity: "required", status: "fail" },
      { validationId: "meta-description", severity: "recommended", status: "fail" },
    ]);
    // Stored in Assay's vocabulary: required is critical.
    const res = await server.api("GET", `/api/jobs/${job.jobId}`, { key: apiKey });
    expect(res.body.results.map((r: any) => [r.validationId, r.severity, r.policySeverity])).toEqual([
      ["single-h1", "critical", "required"],
      ["meta-description", "minor", "recommended"],
    ]);
    await assayAgrees(job, "blocked");
  });

  test("blocked by prohibited: a prohibited thing found blocks on its own list; a skipped check carries reasonCode", async () => {
    const { job, decision } = await client.run(
      htmlJob(LOREM, [{ id: "no-lorem-ipsum", severity: "prohibited" }, "page-title", "required-text-present"]),
    );
    expect(decision).toBe("blocked");
    expect(job.overallPassPolicy).toMatchObject({
      blockedByRequired: false,
      blockedByProhibited: true,
      blockingRequired: [],
      blockingProhibited: ["no-lorem-ipsum"],
    });
    expect(job.validationSets[0]!.failuresBySeverity.prohibited).toEqual(["no-lorem-ipsum"]);
    expect(job.skipped_validations).toEqual([
      expect.objectContaining({ validationId: "required-text-present", reasonCode: "REQUIRES_CONFIGURATION" }),
    ]);
    await assayAgrees(job, "blocked");
  });

  test("undecided: a page that will not load interrupts the job; the interruption names its cause, checks and refund", async () => {
    const { job, decision } = await client.run({
      type: "url",
      url: `${target.url.origin}/down`,
      validations: ["page-title", "html-lang"],
    });
    expect(decision).toBe("undecided");
    expect(job.status).toBe("interrupted");
    expect(job.interruption).toMatchObject({
      cause: "capture_failed",
      affectedValidationIds: ["page-title", "html-lang"],
      refund: { settled: true, refundedCredits: 2 },
    });
    expect(job.interruption!.message).toContain("500");
    expect(job.results.map((r) => r.status)).toEqual(["error", "error"]);
    expect(job.overallPassPolicy).toMatchObject({
      blockedByRequired: false,
      blockedByProhibited: false,
      undecided: ["page-title", "html-lang"],
    });
    await assayAgrees(job, "undecided");
  });

  test("an email job: emailCapture received once the message came; a render's row names its mail client and form factor", async () => {
    const created = await client.create({
      type: "email",
      validations: [{ id: "email-layout-not-broken", clients: { "mobile-sm": ["gmail-android"] } }],
    });
    // The window is three seconds in this file: send at once.
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "Trailhead <offers@trailhead.example>",
        to: created.emailCapture!.testEmail,
        subject: "Spring sale",
        text: "Hello",
        html: "<p>Hello, the spring range is here.</p>",
      });
    const job = await client.waitFor(created.jobId);
    expect(job.status).toBe("completed");
    expect(job.emailCapture).toMatchObject({ captureStatus: "received" });
    expect(job.results[0]).toMatchObject({
      validationId: "email-layout-not-broken",
      captureClientId: "gmail-android",
      captureSizeId: "mobile-sm",
    });
    await assayAgrees(job, HostedClient.decide(job));
  });

  test("undecided: an email job whose message never came; emailCapture says awaiting, then expired", async () => {
    const created = await client.create({ type: "email", validations: ["email-subject-length"] });
    expect(created.status).toBe("pending");
    expect(created.emailCapture).toMatchObject({
      testEmail: expect.stringContaining("@"),
      captureMode: "inbox",
      captureStatus: "awaiting_email",
    });
    expect((created.overallPassPolicy as any).decision).toBe("pending");
    expect(created.validationSets[0]!.validations).toEqual([
      { validationId: "email-subject-length", severity: expect.any(String), status: "pending" },
    ]);
    const job = await client.waitFor(created.jobId);
    expect(HostedClient.decide(job)).toBe("undecided");
    expect(job.emailCapture).toMatchObject({ testEmail: created.emailCapture!.testEmail, captureStatus: "expired" });
    expect(job.interruption).toMatchObject({
      cause: "email_expired",
      affectedValidationIds: ["email-subject-length"],
      refund: { settled: true, refundedCredits: 1 },
    });
    await assayAgrees(job, "undecided");
  });
});

/** What the hosted service's public CI client does with a job: exit 1 when either flag is true, else 0. */
function hostedCiExitCode(job: HostedJob): 0 | 1 {
  const p = job.overallPassPolicy;
  if (p.blockedByRequired || p.blockedByProhibited) return 1;
  return 0;
}

describe("the hosted CI client's exit code", () => {
  test("a clean page with every check passing exits 0 (the flags are false, not empty lists); a failed required check exits 1", async () => {
    const clean = await client.run(htmlJob(GOOD, undefined, { validationSetId: "web-essentials" }));
    expect(clean.job.results.length).toBeGreaterThan(0);
    expect(clean.job.results.every((r) => r.status === "pass")).toBe(true);
    expect(clean.job.overallPassPolicy).toMatchObject({ blockedByRequired: false, blockedByProhibited: false });
    expect(hostedCiExitCode(clean.job)).toBe(0);
    const blocked = await client.run(htmlJob(BAD, [{ id: "single-h1", severity: "required" }]));
    expect(hostedCiExitCode(blocked.job)).toBe(1);
    await assayAgrees(clean.job, "pass");
  });
});

/**
 * A JSON type as a client reads it: a leaf (typeof, or an integer, or one of some strings), an array of one
 * shape, an object's fields (others ignored, as a client ignores them), a field that may be absent, or null.
 */
type Pin =
  | "string"
  | "boolean"
  | "integer"
  | { oneOf: readonly string[] }
  | { each: Pin }
  | { fields: Record<string, Pin> }
  | { optional: Pin }
  | { orNull: Pin };
const oneOf = (...values: string[]): Pin => ({ oneOf: values });
const each = (pin: Pin): Pin => ({ each: pin });
const fields = (f: Record<string, Pin>): Pin => ({ fields: f });
const optional = (pin: Pin): Pin => ({ optional: pin });
const orNull = (pin: Pin): Pin => ({ orNull: pin });
const ids = each("string");

/** Every field of a job the hosted service's clients read, with the JSON type they read it as (from their contract, not from Assay's schema). */
const HOSTED_JOB_TYPES: Pin = fields({
  jobId: "string",
  type: oneOf("url", "static_html", "email"),
  status: oneOf("pending", "running", "completed", "interrupted", "expired"),
  overallPassPolicy: fields({
    blockedByRequired: "boolean",
    blockedByProhibited: "boolean",
    blockingRequired: ids,
    blockingProhibited: ids,
    undecided: ids,
    warnings: ids,
    decision: oneOf("pass", "blocked", "undecided", "pending"),
  }),
  validationSets: each(
    fields({
      validationSetId: orNull("string"),
      validations: each(
        fields({
          validationId: "string",
          severity: oneOf("required", "recommended", "optional", "prohibited"),
          status: oneOf("pass", "fail", "error", "pending"),
        }),
      ),
      failuresBySeverity: fields({ required: ids, recommended: ids, optional: ids, prohibited: ids }),
    }),
  ),
  results: each(
    fields({
      validationId: "string",
      status: oneOf("pass", "fail", "error"),
      reason: optional("string"),
      screenshotUrl: optional("string"),
      captureSizeId: optional("string"),
      captureClientId: optional("string"),
    }),
  ),
  skipped_validations: each(fields({ validationId: "string", reasonCode: "string", message: "string" })),
  emailCapture: optional(
    fields({
      testEmail: "string",
      captureMode: "string",
      captureStatus: oneOf("awaiting_email", "received", "expired"),
      expiresAt: "string",
    }),
  ),
  interruption: optional(
    fields({
      cause: oneOf("capture_failed", "execution_failed", "email_expired"),
      message: "string",
      affectedValidationIds: ids,
      refund: fields({ settled: "boolean", refundedCredits: "integer" }),
    }),
  ),
  createdAt: "string",
  completedAt: orNull("string"),
});

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Checks a value against a pin; mismatches go to `wrong` (path: what was expected, what came), every path that held a value to `seen`. */
function walkPin(value: unknown, pin: Pin, path: string, wrong: string[], seen: Set<string>): void {
  const mismatch = (expected: string) =>
    wrong.push(`${path}: ${expected} expected, got ${JSON.stringify(value)} (${jsonType(value)})`);
  if (typeof pin === "string") {
    const ok = pin === "integer" ? Number.isInteger(value) : typeof value === pin;
    if (ok) seen.add(path);
    else mismatch(pin);
  } else if ("oneOf" in pin) {
    if (typeof value === "string" && pin.oneOf.includes(value)) seen.add(path);
    else mismatch(`one of ${pin.oneOf.join(", ")}`);
  } else if ("optional" in pin) {
    if (value !== undefined) walkPin(value, pin.optional, path, wrong, seen);
  } else if ("orNull" in pin) {
    if (value === null) seen.add(`${path} (null)`);
    else walkPin(value, pin.orNull, path, wrong, seen);
  } else if ("each" in pin) {
    if (!Array.isArray(value)) mismatch("array");
    else for (const item of value) walkPin(item, pin.each, `${path}[]`, wrong, seen);
  } else if (jsonType(value) !== "object") mismatch("object");
  else
    for (const [name, fieldPin] of Object.entries(pin.fields))
      walkPin((value as Record<string, unknown>)[name], fieldPin, `${path}.${name}`, wrong, seen);
}

/** Every path a pin can hold a value at (and each nullable one's null): what the walked jobs must cover between them. */
function pinPaths(pin: Pin, path: string): string[] {
  if (typeof pin === "string" || "oneOf" in pin) return [path];
  if ("optional" in pin) return pinPaths(pin.optional, path);
  if ("orNull" in pin) return [`${path} (null)`, ...pinPaths(pin.orNull, path)];
  if ("each" in pin) return pinPaths(pin.each, `${path}[]`);
  return Object.entries(pin.fields).flatMap(([name, fieldPin]) => pinPaths(fieldPin, `${path}.${name}`));
}

describe("every field the hosted clients read has the JSON type they read it as", () => {
  test("url, static_html, email (pending, then completed), interrupted, and skipped-check jobs, each bare from GET /api/jobs/{jobId} and as created", async () => {
    const sent = async (jobId: string) => (await server.api("GET", `/api/jobs/${jobId}`, { key: apiKey })).body;
    const jobs: Array<[string, unknown]> = [];
    const url = await client.run({
      type: "url",
      url: `${target.url.origin}/sale`,
      validationSetId: "web-essentials",
      validations: ["no-horizontal-overflow"],
      captureSizes: ["mobile-sm"],
    });
    jobs.push(["url", url.job]);
    // Fails a check of each severity, and names a check that needs parameters it was not given (skipped).
    const html = await client.run(
      htmlJob(LOREM.replace("<h1>Draft</h1>", "<h1>Draft</h1><h1>Again</h1><h4>Deep</h4>"), [
        { id: "single-h1", severity: "required" },
        "meta-description",
        { id: "heading-order", severity: "optional" },
        { id: "no-lorem-ipsum", severity: "prohibited" },
        "required-text-present",
      ]),
    );
    jobs.push(["static_html", html.job]);
    const interrupted = await client.run({
      type: "url",
      url: `${target.url.origin}/down`,
      validations: ["page-title"],
    });
    jobs.push(["interrupted", interrupted.job]);
    const pending = await client.create({
      type: "email",
      validations: [{ id: "email-layout-not-broken", clients: { "mobile-sm": ["gmail-android"] } }],
    });
    jobs.push(["email (as created)", pending], ["email pending", await sent(pending.jobId)]);
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "Trailhead <offers@trailhead.example>",
        to: pending.emailCapture!.testEmail,
        subject: "Spring sale",
        text: "Hello",
        html: "<p>Hello, the spring range is here.</p>",
      });
    const completed = await client.waitFor(pending.jobId);
    jobs.push(["email completed", completed]);
    expect([url.job.status, html.job.status, interrupted.job.status, pending.status, completed.status]).toEqual([
      "completed",
      "completed",
      "interrupted",
      "pending",
      "completed",
    ]);
    expect(html.job.skipped_validations.map((s) => s.validationId)).toEqual(["required-text-present"]);

    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const [name, job] of jobs) walkPin(job, HOSTED_JOB_TYPES, name, wrong, seen);
    expect(wrong).toEqual([]);
    // Between them the jobs gave every field a value (and each nullable one null), so every type above was checked on a real answer.
    const covered = new Set([...seen].map((p) => p.replace(/^[^.]*/, "job")));
    expect(pinPaths(HOSTED_JOB_TYPES, "job").filter((p) => !covered.has(p))).toEqual([]);
  });

  test("the pins catch what an earlier Assay answered: blockedByRequired as a list, a skipped check without reasonCode", () => {
    const wrong: string[] = [];
    const old = {
      jobId: "job_1",
      type: "static_html",
      status: "completed",
      overallPassPolicy: {
        blockedByRequired: [],
        blockedByProhibited: [],
        blockingRequired: [],
        blockingProhibited: [],
        undecided: [],
        warnings: [],
        decision: "pass",
      },
      validationSets: [],
      results: [],
      skipped_validations: [
        { validationId: "required-text-present", reason: "REQUIRES_CONFIGURATION", message: "needs parameters" },
      ],
      createdAt: "2025-01-01T00:00:00.000Z",
      completedAt: null,
    };
    walkPin(old, HOSTED_JOB_TYPES, "job", wrong, new Set());
    expect(wrong).toEqual([
      "job.overallPassPolicy.blockedByRequired: boolean expected, got [] (array)",
      "job.overallPassPolicy.blockedByProhibited: boolean expected, got [] (array)",
      "job.skipped_validations[].reasonCode: string expected, got undefined (undefined)",
    ]);
  });
});

describe("the job route and the vocabulary", () => {
  test("GET /api/jobs/{jobId}: the job as GET /api/jobs?jobId= lists it; detail as a query; another organization's or an unknown id is JOB_NOT_FOUND", async () => {
    const { jobId } = await client.create(htmlJob(GOOD, ["page-title"]));
    const listed = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: apiKey });
    const got = await server.api("GET", `/api/jobs/${jobId}`, { key: apiKey });
    expect(got.body).toEqual(listed.body.jobs[0]);
    expect(got.body.results[0]).not.toHaveProperty("note");
    const verbose = await server.api("GET", `/api/jobs/${jobId}?detail=verbose`, { key: apiKey });
    expect(verbose.body.results[0].note).toEqual(expect.any(String));
    const other = (await server.signup()).apiKey;
    expectError(await server.api("GET", `/api/jobs/${jobId}`, { key: other }), 404, "JOB_NOT_FOUND");
    expectError(await server.api("GET", "/api/jobs/job_nope", { key: apiKey }), 404, "JOB_NOT_FOUND");
  });

  test("their logout: DELETE /api/keys/{keyId} with the key itself revokes it", async () => {
    const { apiKey: own, keyId } = await server.signup();
    const res = await fetch(`${server.baseUrl}/api/keys/${keyId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${own}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ keyId, revokedAt: expect.any(String) });
    expect((await fetch(`${server.baseUrl}/api/jobs`, { headers: { authorization: `Bearer ${own}` } })).status).toBe(
      401,
    );
  });

  test("a wrong severity is still refused, with its code and field", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(GOOD, [{ id: "page-title", severity: "blocker" }]),
    });
    expectError(res, 400, "INVALID_ENUM_VALUE");
    expect(res.body.details.field).toBe("validations[0].severity");
  });

  test("a set states which checks block and which warn, with the published mapping; llms.txt publishes it too", async () => {
    const res = await server.api("GET", "/api/validation-sets/web-essentials");
    expect(res.status).toBe(200);
    const set = res.body;
    expect(set.policySeverities["page-title"]).toBe("required");
    expect(set.blockingValidationIds).toContain("page-title");
    expect(set.warningValidationIds).toContain("single-h1");
    expect([...set.blockingValidationIds, ...set.warningValidationIds].sort()).toEqual([...set.validationIds].sort());
    expect(set.severityMapping).toContainEqual({ assay: null, policy: "prohibited", blocks: true });
    const text = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    expect(text).toContain("| `major` | `required` | blocks |");
    expect(text).toContain("| (none) | `prohibited` | blocks |");
  });
});
