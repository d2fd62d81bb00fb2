import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eventsOf, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { checkToolResult } from "../support/contracts";
import { trailheadMessage } from "../support/smtp-session";
import { operations } from "../../src/operations";
import { isTool } from "../../src/operations/operation";

const tools = operations.filter(isTool);
import { MCP_PROTOCOL_VERSIONS } from "../../src/mcp/server";
import { JobRequest } from "../../src/contracts/job-request";
import { jsonSchemaOf } from "../../src/contracts/schema-kit";
import { errorCatalog } from "../../src/errors/catalog";
import { streams } from "../../src/domain/accounts";

/** Every tool of the interface specification, section 4, rule 8. */
const SPEC_TOOLS = [
  "search_validations",
  "list_validations",
  "get_validation",
  "recommend_checks",
  "compare_checks",
  "list_validation_sets",
  "get_validation_set",
  "describe_job_request",
  "check_job_request",
  "explain_error",
  "create_account",
  "estimate_job",
  "run_job",
  "get_job",
  "await_email_job",
  "get_credits",
  "list_keys",
  "get_org",
  "list_feedback_due",
  "list_feedback_questions",
  "submit_feedback_answers",
  "fetch_capture",
  "list_email_clients",
];
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trailhead boots</title><meta name="description" content="Walking boots for every trail, 25% off this spring."></head>
<body><h1>Walking boots</h1><h2>Spring sale</h2><p>Every pair 25% off until Sunday.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A boot"></body></html>`;
const STATIC_JOB = {
  type: "static_html",
  html: PAGE,
  baseUrl: "https://example.com/",
  validationSetId: "web-essentials",
  validations: ["layout-not-broken"],
};
const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];

let server: TestServer;
let account: { apiKey: string; customerId: string };
let anon: Client;
let keyed: Client;

async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: "assay-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${server.baseUrl}/mcp`),
    key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : undefined,
  );
  await client.connect(transport);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;

/** A successful call's structuredContent, after checking the result's shape: a short summary, then the JSON. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.structuredContent)}`);
  checkToolResult(name, result);
  const texts = result.content.filter((c) => c.type === "text") as Array<{ text: string }>;
  expect(texts[0]!.text.length).toBeLessThan(400);
  expect(JSON.parse(texts[texts.length - 1]!.text)).toEqual(result.structuredContent as any);
  return result.structuredContent;
}

/** A refused call: a tool error whose text and structuredContent carry the catalogued code, message and details. */
async function refused(client: Client, name: string, args: Record<string, unknown>, code: string): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  checkToolResult(name, result);
  const body = result.structuredContent as any;
  expect(body.code).toBe(code);
  const entry = errorCatalog.find((e) => e.code === code)!;
  expect(body.title).toBe(entry.title);
  expect(typeof body.message).toBe("string");
  expect(typeof body.requestId).toBe("string");
  const text = (result.content[0] as { text: string }).text;
  expect(text.startsWith(`${code}: ${body.message}`)).toBe(true);
  expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual({
    code,
    message: body.message,
    ...(body.details ? { details: body.details } : {}),
  });
  return body;
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client hides (status codes, headers). */
async function rpc(message: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body };
}

const toolCall = (name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name, arguments: args },
});

beforeAll(async () => {
  server = await startServer();
  account = await server.signup();
  anon = await connect();
  keyed = await connect(account.apiKey);
});
afterAll(async () => {
  await anon?.close();
  await keyed?.close();
  await server.stop();
});

describe("the tool list", () => {
  test("every tool of the specification, with schemas, titles and all four annotations", async () => {
    const { tools: listed } = await anon.listTools();
    const names = listed.map((t) => t.name);
    for (const name of SPEC_TOOLS) expect(names).toContain(name);
    for (const t of listed) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.title?.length).toBeGreaterThan(3);
      expect(t.description!.length).toBeGreaterThan(40);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
        expect(typeof t.annotations?.[hint]).toBe("boolean");
      expect(t.annotations!.readOnlyHint && t.annotations!.destructiveHint).toBe(false);
    }
    const byName = new Map(listed.map((t) => [t.name, t]));
    // The job tools publish the job request schema POST /api/jobs validates with.
    for (const name of ["run_job", "estimate_job", "check_job_request"])
      expect(byName.get(name)!.inputSchema as unknown).toEqual(jsonSchemaOf(JobRequest));
    expect(byName.get("run_job")!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.get("create_account")!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get("list_validations")!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get("get_credits")!.description).toContain("Needs an API key");
  });

  test("initialize negotiates each documented protocol version, and names the server with instructions", async () => {
    for (const version of MCP_PROTOCOL_VERSIONS) {
      const res = await rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      expect(res.status).toBe(200);
      expect(res.body.result.protocolVersion).toBe(version);
    }
    const unknown = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2023-01-01", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(unknown.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(unknown.body.result.serverInfo.name).toBe("assay");
    expect(unknown.body.result.instructions).toContain("Never invent business facts");
    expect(unknown.headers.get("x-request-id")).toMatch(/^req_/);
  });

  test("GET and DELETE are 405 (stateless: no stream, no session); an unknown tool is a JSON-RPC error; bad JSON is a parse error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${server.baseUrl}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
    await expect(anon.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
    const bad = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(-32700);
  });
});

describe("discovery tools need no key and read the same services as HTTP", () => {
  test("list_validations, get_validation, list_validation_sets, get_validation_set and explain_error equal their HTTP routes", async () => {
    expect(await ok(anon, "list_validations")).toEqual((await server.api("GET", "/api/validations")).body);
    expect(await ok(anon, "list_validations", { include: "parameters", subjectType: "email" })).toEqual(
      (await server.api("GET", "/api/validations?include=parameters&subjectType=email")).body,
    );
    expect(await ok(anon, "get_validation", { idOrSlug: "page-title" })).toEqual(
      (await server.api("GET", "/api/validations/page-title")).body,
    );
    expect(await ok(anon, "list_validation_sets")).toEqual((await server.api("GET", "/api/validation-sets")).body);
    expect(await ok(anon, "get_validation_set", { setId: "seo" })).toEqual(
      (await server.api("GET", "/api/validation-sets/seo")).body,
    );
    expect(await ok(anon, "explain_error")).toEqual((await server.api("GET", "/api/errors")).body);
    const one = await ok(anon, "explain_error", { code: "INSUFFICIENT_CREDITS" });
    expect(one.error).toMatchObject({ code: "INSUFFICIENT_CREDITS", httpStatus: 402 });
  });

  test("refusals carry the catalogued code, message and details, as HTTP gives them", async () => {
    const body = await refused(anon, "get_validation", { idOrSlug: "no-such-check" }, "VALIDATION_NOT_FOUND");
    const http = (await server.api("GET", "/api/validations/no-such-check")).body;
    expect({ code: body.code, message: body.message, details: body.details }).toEqual({
      code: http.code,
      message: http.message,
      details: http.details,
    });
    await refused(anon, "get_validation_set", { setId: "nope" }, "VALIDATION_SET_NOT_FOUND");
    // A typo: the nearest ids, in details.suggestions and in the text a client shows, as HTTP answers them.
    const typo = await call(anon, "get_validation", { idOrSlug: "page-titel" });
    expect(typo.isError).toBe(true);
    expect((typo.structuredContent as any).details).toEqual({
      idOrSlug: "page-titel",
      suggestions: { "page-titel": ["page-title"] },
    });
    expect((typo.content[0] as { text: string }).text).toContain('"suggestions":{"page-titel":["page-title"]}');
    expect((await server.api("GET", "/api/validations/page-titel")).body.details).toEqual(
      (typo.structuredContent as any).details,
    );
    const setTypo = await refused(anon, "get_validation_set", { setId: "web-essential" }, "VALIDATION_SET_NOT_FOUND");
    expect(setTypo.details.suggestions).toEqual({ "web-essential": ["web-essentials"] });
    const e = await refused(anon, "list_validations", { subjectType: "pdf" }, "INVALID_ENUM_VALUE");
    expect(e.details).toEqual({ field: "subjectType", value: "pdf", allowedValues: ["url", "email"] });
    expect((await server.api("GET", "/api/validations?subjectType=pdf")).body.details).toEqual(e.details);
    await refused(anon, "explain_error", { code: "NOT_A_CODE" }, "INVALID_ENUM_VALUE");
    await refused(anon, "get_validation", {}, "MISSING_REQUIRED_FIELD");
    expect((await refused(anon, "list_validations", { verbose: true }, "UNKNOWN_FIELD")).details).toEqual({
      unknownFields: ["verbose"],
    });
    await refused(anon, "search_validations", { query: 42 }, "INVALID_REQUEST_BODY");
    await refused(anon, "compare_checks", { ids: ["page-title"] }, "INVALID_REQUEST_BODY");
  });

  test("search_validations ranks exact and word matches", async () => {
    const exact = await ok(anon, "search_validations", { query: "broken-links" });
    expect(exact.matches[0].id).toBe("broken-links");
    const words = await ok(anon, "search_validations", { query: "unsubscribe", subjectType: "email" });
    expect(words.matches.length).toBeGreaterThan(0);
    expect(words.matches.every((m: any) => m.subjectType === "email")).toBe(true);
    expect(words.matches.map((m: any) => m.id)).toContain("email-list-unsubscribe-header");
    expect((await ok(anon, "search_validations", { query: "zzzqqq" })).matches).toEqual([]);
  });

  test("recommend_checks: a set and checks with why, and a job body that check_job_request accepts", async () => {
    const rec = await ok(anon, "recommend_checks", {
      goal: "Make sure the page is accessible and works on phones",
      subjectType: "static_html",
    });
    expect(rec.validationSet.id).toBe("accessibility");
    expect(rec.validationSet.why).toContain("accessible");
    const ids = rec.checks.map((c: any) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["color-contrast", "image-alt-text", "no-horizontal-overflow"]));
    for (const c of rec.checks) expect(c.why.length).toBeGreaterThan(5);
    const body = { ...rec.jobRequest, html: PAGE };
    expect((await ok(anon, "check_job_request", body)).ok).toBe(true);
    // The same goal gives the same answer.
    expect(
      await ok(anon, "recommend_checks", {
        goal: "Make sure the page is accessible and works on phones",
        subjectType: "static_html",
      }),
    ).toEqual(rec);

    const launch = await ok(anon, "recommend_checks", {
      goal: "We go live on Monday: anything broken?",
      subjectType: "url",
    });
    expect(launch.validationSet.id).toBe("launch-readiness");
    const legal = await ok(anon, "recommend_checks", {
      goal: "the legal disclaimer must be on the page",
      subjectType: "url",
    });
    const required = legal.checks.find((c: any) => c.id === "required-text-present");
    expect(required.requiresConfiguration).toBe(true);
    expect(required.askUserFor[0].parameter).toBe("text");
    expect(legal.notes[0]).toContain("never invent");
    const email = await ok(anon, "recommend_checks", {
      goal: "will gmail let people unsubscribe",
      subjectType: "email",
    });
    expect(email.checks.map((c: any) => c.id)).toContain("email-list-unsubscribe-header");
    expect(email.checks.every((c: any) => !c.id.startsWith("page-"))).toBe(true);
  });

  test("compare_checks: side by side, with the differences", async () => {
    const cmp = await ok(anon, "compare_checks", { ids: ["page-title", "layout-not-broken"] });
    expect(cmp.validations.map((v: any) => v.id)).toEqual(["page-title", "layout-not-broken"]);
    expect(cmp.differences).toEqual(expect.arrayContaining(["executionKind", "price"]));
    expect(cmp.canRunTogether).toBe(true);
    expect((await ok(anon, "compare_checks", { ids: ["page-title", "email-subject-length"] })).canRunTogether).toBe(
      false,
    );
    await refused(anon, "compare_checks", { ids: ["page-title", "nope"] }, "VALIDATION_NOT_FOUND");
  });

  test("describe_job_request: the schema, and examples per subject type that pass validation", async () => {
    const all = await ok(anon, "describe_job_request");
    expect(all.schema).toEqual(jsonSchemaOf(JobRequest));
    expect(Object.keys(all.examples)).toEqual(["url", "static_html", "email"]);
    expect(all.examples.url.minimal).toMatchObject({ type: "url", url: expect.stringMatching(/^https:/) });
    for (const type of ["static_html", "email"]) {
      for (const example of [all.examples[type].minimal, all.examples[type].withParameters].filter(Boolean)) {
        expect(await ok(anon, "check_job_request", example)).toMatchObject({ ok: true });
      }
    }
    const one = await ok(anon, "describe_job_request", { type: "email" });
    expect(Object.keys(one.examples)).toEqual(["email"]);
  });

  test("check_job_request: the error a body would get, the plan without a key, the quote with one; nothing created", async () => {
    const bad = await ok(anon, "check_job_request", {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validationSetId: "nope",
    });
    const http = await server.api("POST", "/api/jobs/estimate", {
      key: account.apiKey,
      body: { type: "static_html", html: PAGE, baseUrl: "https://example.com/", validationSetId: "nope" },
    });
    expect(bad).toMatchObject({
      ok: false,
      httpStatus: 400,
      error: { code: "VALIDATION_SET_NOT_FOUND", message: http.body.message, details: http.body.details },
    });
    expect((await ok(anon, "check_job_request", { lines: [] })).error.code).toBe("LEGACY_REQUEST_SHAPE");
    expect(
      (await ok(anon, "check_job_request", { type: "url", url: "http://127.0.0.1/", validations: ["page-title"] }))
        .error,
    ).toMatchObject({
      code: "PLAYGROUND_INVALID_URL",
      details: { reason: expect.any(String) },
    });
    const plan = await ok(anon, "check_job_request", STATIC_JOB);
    expect(plan.plan.totalCredits).toBe(11);
    const quote = await ok(keyed, "check_job_request", STATIC_JOB);
    expect(quote.quote).toEqual(
      (await server.api("POST", "/api/jobs/estimate", { key: account.apiKey, body: STATIC_JOB })).body,
    );
    // A skipped check has the job's shape everywhere it is listed, reasonCode included.
    const skipping = {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: ["page-title", "required-text-present"],
    };
    const skipped = [
      {
        validationId: "required-text-present",
        reason: "REQUIRES_CONFIGURATION",
        reasonCode: "REQUIRES_CONFIGURATION",
        message: expect.any(String),
      },
    ];
    expect((await ok(anon, "check_job_request", skipping)).plan.skipped_validations).toEqual(skipped);
    expect((await ok(keyed, "check_job_request", skipping)).quote.skipped_validations).toEqual(skipped);
    expect((await ok(keyed, "estimate_job", skipping)).skipped_validations).toEqual(skipped);
    expect((await server.api("GET", "/api/jobs", { key: account.apiKey })).body.jobs).toEqual([]);
  });

  test("create_account opens an account recorded on channel mcp; its refusals are catalogued", async () => {
    const email = uniqueEmail("mcp");
    const created = await ok(anon, "create_account", { email });
    // (Checked field by field: bun's toMatchObject writes its asymmetric matchers into the object it checks.)
    expect(created.email).toBe(email);
    expect(created.apiKey).toMatch(/^assay_sk_/);
    expect((await server.api("GET", "/api/org", { key: created.apiKey })).body.customerId).toBe(created.customerId);
    const events = eventsOf(server).filter((e) => e.streamId === streams.account(created.customerId));
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.metadata.channel).toBe("mcp");
    await refused(anon, "create_account", { email }, "ACCOUNT_EXISTS");
    await refused(anon, "create_account", { email: "not-an-email" }, "SIGNUP_INVALID_EMAIL");
    await refused(anon, "create_account", { email: 42 }, "SIGNUP_INVALID_EMAIL");
    await refused(anon, "create_account", {}, "MISSING_REQUIRED_FIELD");
    await refused(anon, "create_account", { email: uniqueEmail(), plan: "pro" }, "UNKNOWN_FIELD");
  });
});

describe("authentication", () => {
  const keyTools = tools.filter((t) => t.auth.kind === "key").map((t) => t.mcp.name);

  test("every key-needing tool without a key: HTTP 401 with WWW-Authenticate pointing at the protected-resource metadata", async () => {
    expect(keyTools.length).toBeGreaterThanOrEqual(10);
    for (const name of [...keyTools, "fetch_capture"]) {
      const res = await rpc(toolCall(name, { jobId: "job_x", key: "x" }));
      expect([name, res.status]).toEqual([name, 401]);
      expect(res.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(res.body).toMatchObject({ code: "AUTH_REQUIRED", details: { tool: name } });
    }
    const meta = await server.api("GET", "/.well-known/oauth-protected-resource/mcp");
    expect(meta.body.resource).toBe(`${server.baseUrl}/mcp`);
    // The SDK client sees the 401 as a transport error.
    await expect(anon.callTool({ name: "get_credits", arguments: {} })).rejects.toThrow(/401|AUTH_REQUIRED/);
  });

  test("public tools, tools/list and initialize need no key", async () => {
    expect((await rpc(toolCall("list_validation_sets"))).status).toBe(200);
    expect((await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);
  });

  test("an invalid key is 401 invalid_token, even for public tools and initialize", async () => {
    for (const message of [
      toolCall("list_validations"),
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
    ]) {
      const res = await rpc(message, { authorization: "Bearer assay_sk_not_a_real_key" });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
      expect(res.body.code).toBe("AUTH_REQUIRED");
    }
    await expect(connect("assay_sk_not_a_real_key")).rejects.toThrow(/AUTH_REQUIRED/);
  });

  test("a key without the scope, and another organization's customerId, are tool errors with their codes", async () => {
    const readOnly = await server.assay.accounts.mintKey(account.customerId, "read only", ["jobs:read"], {
      actor: { kind: "system" },
      channel: "cli",
    });
    const client = await connect(readOnly.apiKey);
    try {
      const e = await refused(client, "run_job", STATIC_JOB, "INSUFFICIENT_SCOPE");
      expect(e.details.requiredScope).toBe("jobs:write");
      await refused(client, "get_credits", {}, "INSUFFICIENT_SCOPE");
      await refused(client, "list_feedback_due", {}, "INSUFFICIENT_SCOPE");
      await refused(client, "get_job", { jobId: "job_nope" }, "JOB_NOT_FOUND");
    } finally {
      await client.close();
    }
    const other = await server.signup();
    await refused(keyed, "get_org", { customerId: other.customerId }, "CUSTOMER_SCOPE_MISMATCH");
    await refused(keyed, "get_org", { customerId: "cus_nope" }, "CUSTOMER_NOT_FOUND");
  });
});

describe("key tools", () => {
  test("get_org, list_keys, get_credits and the feedback tools equal their HTTP routes", async () => {
    const key = account.apiKey;
    expect(await ok(keyed, "get_org")).toEqual((await server.api("GET", "/api/org", { key })).body);
    expect(await ok(keyed, "list_keys")).toEqual((await server.api("GET", "/api/keys", { key })).body);
    const clients = await ok(keyed, "list_email_clients");
    expect(clients).toEqual((await server.api("GET", "/api/email-clients", { key })).body);
    expect(Object.keys(clients.formFactors).sort()).toEqual(["desktop-md", "mobile-sm", "tablet-portrait"]);
    expect(await ok(keyed, "get_credits", { limit: 5 })).toEqual(
      (await server.api("GET", "/api/credits?limit=5", { key })).body,
    );
    await refused(keyed, "get_credits", { limit: 0 }, "INVALID_REQUEST_BODY");
    const due = await ok(keyed, "list_feedback_due");
    expect(due).toEqual({ due: false, setId: null, questionCount: 0, rewardCredits: 0 });
    expect(due).toEqual((await server.api("GET", "/api/feedback/due", { key })).body);
    expect(await ok(keyed, "list_feedback_questions")).toEqual({ due: false });
    expect((await server.api("GET", "/api/feedback/questions", { key })).body).toEqual({ due: false });
    const submission = { setId: "fs_1", answers: [{ questionId: "q1", value: "pass" }] };
    const e = await refused(keyed, "submit_feedback_answers", submission, "FEEDBACK_SET_UNKNOWN");
    const http = await server.api("POST", "/api/feedback", { key, body: submission });
    expect(http.status).toBe(404);
    expect({ code: http.body.code, details: http.body.details }).toEqual({ code: e.code, details: e.details });
    await refused(keyed, "submit_feedback_answers", { answers: [] }, "MISSING_REQUIRED_FIELD");
  });

  test("estimate_job equals POST /api/jobs/estimate; job refusals carry planJob's codes and details", async () => {
    expect(await ok(keyed, "estimate_job", STATIC_JOB)).toEqual(
      (await server.api("POST", "/api/jobs/estimate", { key: account.apiKey, body: STATIC_JOB })).body,
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...STATIC_JOB, validationSetId: ["a", "b"] }, "ONE_VALIDATION_SET_PER_JOB"],
      [{ ...STATIC_JOB, extra: 1 }, "UNKNOWN_FIELD"],
      [{ type: "static_html", html: PAGE, baseUrl: "https://example.com/" }, "NO_VALIDATIONS_SELECTED"],
      [
        { ...STATIC_JOB, validations: [{ id: "required-text-present", parameters: { text: 3 } }] },
        "INVALID_PARAMETER_VALUE",
      ],
      [{ ...STATIC_JOB, validationSetId: "nope" }, "VALIDATION_SET_NOT_FOUND"],
      [{ ...STATIC_JOB, detail: "loud" }, "INVALID_ENUM_VALUE"],
      [{ ...STATIC_JOB, validationSetId: "web-essentails" }, "VALIDATION_SET_NOT_FOUND"],
      [{ ...STATIC_JOB, validations: ["page-titel"] }, "VALIDATION_NOT_RUNNABLE"],
    ];
    for (const [body, code] of cases) {
      for (const tool of ["run_job", "estimate_job"]) {
        const e = await refused(keyed, tool, body, code);
        const http = await server.api("POST", tool === "run_job" ? "/api/jobs" : "/api/jobs/estimate", {
          key: account.apiKey,
          body,
        });
        expect({
          status: http.status,
          code: http.body.code,
          message: http.body.message,
          details: http.body.details,
        }).toEqual({
          status: errorCatalog.find((c) => c.code === code)!.status,
          code: e.code,
          message: e.message,
          details: e.details,
        });
      }
    }
    const typo = await refused(
      keyed,
      "run_job",
      { ...STATIC_JOB, validations: ["page-titel"] },
      "VALIDATION_NOT_RUNNABLE",
    );
    expect(typo.details.suggestions).toEqual({ "page-titel": ["page-title"] });
  });

  test("get_job and await_email_job without detail answer brief (the default), even for a job run verbose", async () => {
    const job = await ok(keyed, "run_job", {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: ["page-title"],
      detail: "verbose",
    });
    expect(job.results[0].note).toEqual(expect.any(String));
    const got = await ok(keyed, "get_job", { jobId: job.jobId });
    expect(got.results[0]).not.toHaveProperty("note");
    expect(got.results[0]).not.toHaveProperty("references");
    expect((await ok(keyed, "await_email_job", { jobId: job.jobId, timeoutSeconds: 1 })).job).toEqual(got);
    expect(await ok(keyed, "get_job", { jobId: job.jobId, detail: "verbose" })).toEqual(job);
  });

  test("run_job on static_html: full results, recorded on channel mcp; get_job and fetch_capture read it back", async () => {
    const job = await ok(keyed, "run_job", STATIC_JOB);
    expect(job.status).toBe("completed");
    expect(job.results).toHaveLength(10);
    expect(job.results.map((r: any) => r.validationId)).toContain("layout-not-broken");
    for (const r of job.results) expect(["pass", "fail", "error"]).toContain(r.verdict);
    expect(job.credits.charged).toBe(11);
    const events = eventsOf(server).filter((e) => e.streamId === streams.job(job.jobId));
    expect(events.length).toBeGreaterThan(1);
    for (const e of events)
      expect(e.metadata).toMatchObject({ channel: "mcp", actor: { kind: "key", id: expect.any(String) } });

    const got = await ok(keyed, "get_job", { jobId: job.jobId });
    const http = (await server.api("GET", `/api/jobs?jobId=${job.jobId}`, { key: account.apiKey })).body.jobs[0];
    const stable = (j: any) => ({ ...j, results: j.results.map(({ screenshotShareUrl, ...r }: any) => r) });
    expect(stable(got)).toEqual(stable(http));
    expect((await ok(keyed, "get_job", { jobId: job.jobId, detail: "verbose" })).results[0].note).toEqual(
      expect.any(String),
    );
    await refused(keyed, "get_job", { jobId: "job_nope" }, "JOB_NOT_FOUND");

    const visual = job.results.find((r: any) => r.screenshotUrl);
    expect(visual).toBeDefined();
    const image = await call(keyed, "fetch_capture", { url: visual.screenshotUrl });
    expect(image.isError).toBeFalsy();
    const img = image.content.find((c) => c.type === "image") as { data: string; mimeType: string };
    expect(img.mimeType).toBe("image/jpeg");
    const bytes = Buffer.from(img.data, "base64");
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const owner = await fetch(visual.screenshotUrl, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(Buffer.from(await owner.arrayBuffer()).equals(bytes)).toBe(true);
    expect((image.structuredContent as any).bytes).toBe(bytes.length);
    // A share link needs no key; a capture key does.
    const shared = await call(anon, "fetch_capture", { url: visual.screenshotShareUrl });
    expect(shared.isError).toBeFalsy();
    expect((shared.content.find((c) => c.type === "image") as { data: string }).data).toBe(img.data);
    const key = (image.structuredContent as any).key;
    expect((await call(keyed, "fetch_capture", { key })).isError).toBeFalsy();
    expect((await rpc(toolCall("fetch_capture", { key }))).status).toBe(401);
    await refused(
      anon,
      "fetch_capture",
      { url: visual.screenshotShareUrl.replace(/signature=[^&]+/, "signature=AAAA") },
      "STORAGE_OBJECT_NOT_FOUND",
    );
    const stranger = await connect((await server.signup()).apiKey);
    try {
      await refused(stranger, "fetch_capture", { key }, "STORAGE_OBJECT_NOT_FOUND");
    } finally {
      await stranger.close();
    }
    await refused(keyed, "fetch_capture", { key, url: visual.screenshotUrl }, "INVALID_REQUEST_BODY");
    await refused(keyed, "fetch_capture", {}, "MISSING_REQUIRED_FIELD");
  });

  test("INSUFFICIENT_CREDITS carries the balance, the price and the shortfall; nothing is charged", async () => {
    const config = server.assay.config;
    const before = config.signupCredits;
    config.signupCredits = 3;
    let poor: { apiKey: string };
    try {
      poor = await ok(anon, "create_account", { email: uniqueEmail("poor") });
    } finally {
      config.signupCredits = before;
    }
    const client = await connect(poor.apiKey);
    try {
      const e = await refused(client, "run_job", STATIC_JOB, "INSUFFICIENT_CREDITS");
      expect(e.details).toMatchObject({ balance: 3, required: 11, shortfall: 8 });
      expect((await ok(client, "get_credits")).balance).toBe(3);
    } finally {
      await client.close();
    }
  });

  test("the feedback tools for real: the due set after a job, the looks-wrong set, a submission filed as mcp and paid once, get_feedback", async () => {
    const key = account.apiKey;
    const [job] = (await server.api("GET", "/api/jobs?limit=1", { key })).body.jobs;
    const due = await ok(keyed, "list_feedback_due");
    expect(due).toEqual({ due: true, setId: "first-job", questionCount: 3, rewardCredits: 5 });
    expect(due).toEqual((await server.api("GET", "/api/feedback/due", { key })).body);
    expect(await ok(keyed, "list_feedback_questions")).toEqual(
      (await server.api("GET", "/api/feedback/questions", { key })).body,
    );

    const row = job.results.find((r: any) => r.verdict !== "error") ?? job.results[0];
    const anchors = { jobId: job.jobId, validationId: row.validationId };
    const asked = await ok(keyed, "list_feedback_questions", anchors);
    expect(asked).toMatchObject({ due: true, setId: "looks-wrong", storedVerdict: row.verdict });
    expect(asked).toEqual(
      (await server.api("GET", `/api/feedback/questions?jobId=${job.jobId}&validationId=${row.validationId}`, { key }))
        .body,
    );
    const answers = [
      { questionId: "humanVerdict", value: row.verdict },
      { questionId: "aiMistakeNotes", value: null },
      { questionId: "verdictComments", value: "Right call." },
      { questionId: "feedbackNotes", value: "" },
    ];
    const before = (await ok(keyed, "get_credits")).balance;
    const receipt = await ok(keyed, "submit_feedback_answers", { setId: "looks-wrong", ...anchors, answers });
    expect(receipt).toMatchObject({
      ...anchors,
      source: "mcp",
      payout: { credits: asked.rewardCredits, balanceAfter: before + asked.rewardCredits },
    });
    const submitted = eventsOf(server)
      .filter((e) => e.type === "FeedbackSubmitted")
      .pop()!;
    expect(submitted.metadata).toMatchObject({ channel: "mcp", actor: { kind: "key" } });
    expect(submitted.data).toMatchObject({ source: "mcp", ...anchors });
    await refused(
      keyed,
      "submit_feedback_answers",
      { setId: "looks-wrong", ...anchors, answers },
      "FEEDBACK_ALREADY_GIVEN",
    );
    const record = await ok(keyed, "get_feedback", anchors);
    expect(record).toMatchObject({ humanVerdict: row.verdict, disputed: false, source: "mcp" });
    expect(record).toEqual(
      (await server.api("GET", `/api/feedback?jobId=${job.jobId}&validationId=${row.validationId}`, { key })).body,
    );
    const other = job.results.find((r: any) => r.validationId !== row.validationId);
    await refused(keyed, "get_feedback", { jobId: job.jobId, validationId: other.validationId }, "FEEDBACK_NOT_FOUND");
  });

  test("an email job: run_job answers pending, await_email_job waits (bounded), then completes after real SMTP delivery", async () => {
    const job = await ok(keyed, "run_job", {
      type: "email",
      subject: "Spring sale: 25% off walking boots",
      validations: EMAIL_CHECKS,
    });
    expect(job.status).toBe("pending");
    expect(job.testEmail).toMatch(/^t-[a-z0-9]{26}@/);

    const started = Date.now();
    const waiting = await ok(keyed, "await_email_job", { jobId: job.jobId, timeoutSeconds: 1 });
    expect(waiting.stillPending).toBe(true);
    expect(waiting.job.status).toBe("pending");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await refused(keyed, "await_email_job", { jobId: job.jobId, timeoutSeconds: 500 }, "INVALID_REQUEST_BODY");

    const awaited = ok(keyed, "await_email_job", { jobId: job.jobId, timeoutSeconds: 60 });
    await Bun.sleep(300);
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail(trailheadMessage(job.testEmail));
    const done = await awaited;
    expect(done.stillPending).toBe(false);
    expect(done.job.status).toBe("completed");
    expect(done.job.results.map((r: any) => [r.validationId, r.verdict])).toEqual([
      ["email-subject-length", "pass"],
      ["email-list-unsubscribe-header", "pass"],
    ]);
    expect(done.job.email.subjectMatches).toBe(true);
    const accepted = eventsOf(server).filter((e) => e.streamId === streams.job(job.jobId))[0]!;
    expect(accepted.metadata.channel).toBe("mcp");
  });
});
