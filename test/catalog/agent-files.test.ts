import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { startServer, type TestServer } from "../support/harness";
import { createHttpApp } from "../../src/http/app";
import { validationModules } from "../../src/catalog/registry";
import { validationSets } from "../../src/catalog/sets";
import { errorCatalog } from "../../src/errors/catalog";
import { operations } from "../../src/operations";
import { isTool } from "../../src/operations/operation";

const tools = operations.filter(isTool);
import { MCP_PROTOCOL_VERSIONS } from "../../src/mcp/server";
import { jobExamples } from "../../src/services/job-request-description";
import { JOB_TYPES } from "../../src/contracts/job-request";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startServer();
  key = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

const PAGE = '<!doctype html><html lang="en"><head><title>Hi</title></head><body><h1>Hi</h1></body></html>';

/** A URL as RFC 8414 and RFC 9728 want their identifiers: absolute http(s), no query, no fragment. */
function expectIdentifierUrl(value: unknown) {
  expect(typeof value).toBe("string");
  const url = new URL(value as string);
  expect(["http:", "https:"]).toContain(url.protocol);
  expect([url.search, url.hash]).toEqual(["", ""]);
}

/** The fields RFC 8414 §2 defines, and RFC 8628 §4's device_authorization_endpoint: anything else is a typo here. */
const RFC8414_FIELDS = new Set([
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "jwks_uri",
  "registration_endpoint",
  "scopes_supported",
  "response_types_supported",
  "response_modes_supported",
  "grant_types_supported",
  "token_endpoint_auth_methods_supported",
  "token_endpoint_auth_signing_alg_values_supported",
  "service_documentation",
  "ui_locales_supported",
  "op_policy_uri",
  "op_tos_uri",
  "revocation_endpoint",
  "revocation_endpoint_auth_methods_supported",
  "revocation_endpoint_auth_signing_alg_values_supported",
  "introspection_endpoint",
  "introspection_endpoint_auth_methods_supported",
  "introspection_endpoint_auth_signing_alg_values_supported",
  "code_challenge_methods_supported",
  "device_authorization_endpoint",
]);
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe("protected-resource metadata (RFC 9728)", () => {
  test("names the MCP endpoint, this server as its authorization server, header bearer tokens, the scopes and the documentation", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await server.api("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toEqual({
        resource: `${server.baseUrl}/mcp`,
        resource_name: "Assay MCP tool server",
        authorization_servers: [server.baseUrl],
        bearer_methods_supported: ["header"],
        scopes_supported: ["jobs:read", "jobs:write", "account:read", "feedback:write", "webhooks:write"],
        resource_documentation: `${server.baseUrl}/llms.txt`,
      });
    }
  });

  test("its shape is RFC 9728's (§2, §3.3), as the MCP SDK's client parses it; each authorization server publishes its RFC 8414 metadata", async () => {
    const res = await server.api("GET", "/.well-known/oauth-protected-resource/mcp");
    const meta = OAuthProtectedResourceMetadataSchema.parse(res.body);
    // §3.3: the resource is the identifier the well-known suffix was taken from.
    expect(meta.resource).toBe(`${server.baseUrl}/mcp`);
    expectIdentifierUrl(meta.resource);
    for (const method of meta.bearer_methods_supported ?? []) expect(["header", "body", "query"]).toContain(method);
    expect(meta.authorization_servers!.length).toBeGreaterThan(0);
    for (const issuer of meta.authorization_servers!) {
      expectIdentifierUrl(issuer);
      // RFC 8414 §3.1: the well-known path goes between the host and the issuer's path (none here).
      const url = new URL(issuer);
      const as = await fetch(`${url.origin}/.well-known/oauth-authorization-server${url.pathname.replace(/\/$/, "")}`);
      expect(as.status).toBe(200);
      expect((await as.json()).issuer).toBe(issuer);
    }
    // The 401 of a key-needing tool points at this document.
    const challenge = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_credits", arguments: {} },
      }),
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("www-authenticate")).toContain(
      `resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe("authorization server metadata (RFC 8414)", () => {
  test("the device flow as it is: issuer, the device authorization and token endpoints, the device-code grant, public clients, the scopes", async () => {
    const res = await server.api("GET", "/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual({
      issuer: server.baseUrl,
      device_authorization_endpoint: `${server.baseUrl}/api/device/code`,
      token_endpoint: `${server.baseUrl}/api/device/token`,
      grant_types_supported: [DEVICE_GRANT],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["jobs:read", "jobs:write", "account:read", "feedback:write", "webhooks:write"],
      service_documentation: `${server.baseUrl}/llms.txt`,
    });
  });

  test("its shape is RFC 8414's (§2, §3.2, §3.3) and RFC 8628's (§4)", async () => {
    const meta = (await server.api("GET", "/.well-known/oauth-authorization-server")).body as Record<string, unknown>;
    for (const field of Object.keys(meta)) expect([field, RFC8414_FIELDS.has(field)]).toEqual([field, true]);
    // §3.3: the issuer is the identifier the well-known path was formed from.
    expect(meta.issuer).toBe(server.baseUrl);
    expectIdentifierUrl(meta.issuer);
    // §3.2: no member with zero elements; every *_supported is a list of strings.
    for (const [field, value] of Object.entries(meta)) {
      if (field.endsWith("_supported")) {
        expect(Array.isArray(value)).toBe(true);
        expect((value as unknown[]).length).toBeGreaterThan(0);
        for (const item of value as unknown[]) expect(typeof item).toBe("string");
      }
      if (field.endsWith("_endpoint") || field === "service_documentation") expectIdentifierUrl(value);
    }
    // §2: a token endpoint (not implicit-only); no grant that uses an authorization endpoint, so none is named,
    // and response_types_supported (required only with one: erratum 7793) is left out rather than empty.
    const grants = meta.grant_types_supported as string[];
    expect(typeof meta.token_endpoint).toBe("string");
    expect(grants.filter((g) => g === "authorization_code" || g === "implicit")).toEqual([]);
    expect(meta).not.toHaveProperty("authorization_endpoint");
    expect(meta).not.toHaveProperty("response_types_supported");
    // Named, because the defaults (authorization_code and implicit; client_secret_basic) are not offered.
    expect(grants).toEqual([DEVICE_GRANT]);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["none"]);
    // RFC 8628 §4: the device authorization endpoint, with the device-code grant.
    expectIdentifierUrl(meta.device_authorization_endpoint);
  });

  test("what it names works: a public client gets a device code for a published scope, and the token endpoint answers RFC 8628's pending", async () => {
    const meta = (await server.api("GET", "/.well-known/oauth-authorization-server")).body;
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const code = await fetch(
      meta.device_authorization_endpoint,
      form({ client_id: "rfc8414-test", scope: meta.scopes_supported[0] }),
    );
    expect(code.status).toBe(200);
    const issued = await code.json();
    // (Field by field: bun's toMatchObject writes its asymmetric matchers into the object it checks.)
    expect([
      typeof issued.device_code,
      typeof issued.user_code,
      issued.verification_uri,
      typeof issued.interval,
    ]).toEqual(["string", "string", `${server.baseUrl}/device`, "number"]);
    const token = await fetch(
      meta.token_endpoint,
      form({ grant_type: meta.grant_types_supported[0], device_code: issued.device_code, client_id: "rfc8414-test" }),
    );
    expect(token.status).toBe(400);
    expect((await token.json()).error).toBe("authorization_pending");
  });
});

describe("llms.txt and llms-full.txt", () => {
  test("llms.txt: the short map, with how to get a key, pick checks, poll email jobs, the verdicts and the rule", async () => {
    const res = await fetch(`${server.baseUrl}/llms.txt`);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text.startsWith("# Assay\n\n> ")).toBe(true);
    for (const needle of [
      "## Get a key",
      `POST ${server.baseUrl}/api/signup`,
      "## Pick checks",
      "recommend_checks",
      "## Email jobs",
      "testEmail",
      "is no longer `pending`",
      "`fail`",
      "`error`",
      "not a verdict",
      "Never invent business facts",
      "postal address",
      "unsubscribe URL",
      "sender domain",
      "Ask the user",
      `${server.baseUrl}/llms-full.txt`,
      `${server.baseUrl}/api/openapi.json`,
      `${server.baseUrl}/mcp`,
    ])
      expect([needle, text.includes(needle)]).toEqual([needle, true]);
    for (const set of validationSets) expect(text).toContain(`\`${set.id}\``);
  });

  test("llms-full.txt: every check, set, error code and tool, and a job example per subject type", async () => {
    const text = await (await fetch(`${server.baseUrl}/llms-full.txt`)).text();
    for (const m of validationModules) expect(text).toContain(`### \`${m.meta.id}\``);
    for (const s of validationSets) expect(text).toContain(`### \`${s.id}\``);
    for (const e of errorCatalog) expect(text).toContain(`| \`${e.code}\` | ${e.status} |`);
    for (const t of tools) expect(text).toContain(`| \`${t.mcp.name}\` |`);
    for (const v of MCP_PROTOCOL_VERSIONS) expect(text).toContain(`\`${v}\``);
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!));
    for (const type of JOB_TYPES) expect(blocks.some((b) => b.type === type)).toBe(true);
    // Every example in the file passes the service's own validation.
    for (const body of blocks.filter((b) => b.type !== "url")) {
      const res = await server.api("POST", "/api/jobs/estimate", { key, body });
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), 200]);
    }
  });
});

describe("brand files", () => {
  test("brand-card.json: logos that load, colours, type and voice; its check parameters are a valid job", async () => {
    const card = (await server.api("GET", "/.well-known/brand-card.json")).body;
    expect(card.name).toBe("Assay");
    expect(card.logos.length).toBeGreaterThanOrEqual(2);
    for (const logo of card.logos) {
      const res = await fetch(logo.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(await res.text()).toStartWith("<svg");
    }
    for (const c of card.colors) expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(card.typography.body.family).toEqual(expect.any(String));
    expect(card.voice.do.length).toBeGreaterThan(0);
    const job = {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: [{ id: "brand-colors", parameters: card.checkParameters["brand-colors"] }],
    };
    expect((await server.api("POST", "/api/jobs/estimate", { key, body: job })).status).toBe(200);
    expect((await server.api("GET", "/brand/nope.svg")).body.code).toBe("STORAGE_OBJECT_NOT_FOUND");
  });

  test("brand-schema.json: every validation in exactly one category", async () => {
    const schema = (await server.api("GET", "/.well-known/brand-schema.json")).body;
    expect(schema.experimental).toBe(true);
    const ids = schema.categories.flatMap((c: any) => c.checks.map((k: any) => k.id));
    expect(ids.sort()).toEqual(validationModules.map((m) => m.meta.id).sort());
    for (const c of schema.categories)
      for (const k of c.checks) expect(validationModules.find((m) => m.meta.id === k.id)!.meta.category).toBe(c.id);
  });
});

describe("OpenAPI", () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await server.api("GET", "/api/openapi.json")).body;
  });

  test("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    if (!res.valid) console.error(JSON.stringify(res.errors, null, 2).slice(0, 3000));
    expect(res.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("every schema in it compiles as JSON Schema 2020-12, and the JobRequest schema accepts the documented examples", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemas: unknown[] = [];
    const walk = (node: any) => {
      if (!node || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        // The catalogued error bodies refer to components.schemas.Error, compiled below; a status that may also
        // answer a standard's body (OAuth's) offers both as oneOf: its own members are compiled here.
        const own = (x: any) => x && typeof x === "object" && !x.$ref && !x.allOf && !x.oneOf;
        if (k === "schema" && own(v)) schemas.push(v);
        if (k === "schema" && (v as any)?.oneOf) schemas.push(...(v as any).oneOf.filter(own));
        walk(v);
      }
    };
    walk(doc.paths);
    expect(schemas.length).toBeGreaterThan(30);
    for (const s of schemas) ajv.compile(s as object);
    const jobRequest = ajv.compile(doc.components.schemas.JobRequest);
    for (const type of JOB_TYPES) {
      const ex = jobExamples(type);
      for (const body of [ex.minimal, "withParameters" in ex ? ex.withParameters : undefined].filter(Boolean)) {
        expect([type, jobRequest(body), jobRequest.errors]).toEqual([type, true, null]);
      }
    }
    expect(jobRequest({ type: "url", url: "https://example.com/", extra: 1 })).toBe(false);
    ajv.compile(doc.components.schemas.Error);
  });

  test("documents every /api route the app serves, and only those", () => {
    const served = createHttpApp(server.assay)
      .routes.filter((r) => r.path.startsWith("/api/"))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`)
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  test("each route lists catalogued error codes, grouped by their HTTP status", () => {
    const byCode = new Map(errorCatalog.map((e) => [e.code, e.status]));
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        expect(op["x-error-codes"]).toContain("INTERNAL_ERROR");
        for (const code of op["x-error-codes"]) {
          expect([path, method, code, byCode.has(code)]).toEqual([path, method, code, true]);
          const { schema } = op.responses[String(byCode.get(code))].content["application/json"];
          const catalogued = schema.allOf ? schema : schema.oneOf.find((s: any) => s.allOf);
          expect(catalogued.allOf[1].properties.code.enum).toContain(code);
        }
      }
    }
  });

  test("the codes routes really answer are among those they document", async () => {
    const cases: Array<[string, string, string, { key?: boolean; body?: unknown; rawBody?: string }?]> = [
      ["get", "/api/validations?include=everything", "/api/validations"],
      ["get", "/api/validations/no-such-check", "/api/validations/{idOrSlug}"],
      ["get", "/api/validation-sets?subjectType=pdf", "/api/validation-sets"],
      ["get", "/api/validation-sets/nope", "/api/validation-sets/{setId}"],
      ["post", "/api/signup", "/api/signup", { body: {} }],
      ["post", "/api/signup", "/api/signup", { body: { email: "x" } }],
      ["post", "/api/signup", "/api/signup", { body: { email: "a@example.com", plan: "pro" } }],
      ["get", "/api/org", "/api/org"],
      ["get", "/api/org?customerId=cus_nope", "/api/org", { key: true }],
      ["get", "/api/keys", "/api/keys"],
      ["post", "/api/keys", "/api/keys", { key: true }],
      ["post", "/api/keys/key_1/rotate", "/api/keys/{keyId}/rotate", { key: true }],
      ["get", "/api/credits?limit=0", "/api/credits", { key: true }],
      [
        "post",
        "/api/jobs/estimate",
        "/api/jobs/estimate",
        { key: true, body: { type: "static_html", html: PAGE, baseUrl: "https://example.com/" } },
      ],
      ["post", "/api/jobs", "/api/jobs", { key: true, body: { lines: [] } }],
      ["post", "/api/jobs", "/api/jobs", { key: true, rawBody: "{" }],
      [
        "post",
        "/api/jobs",
        "/api/jobs",
        { key: true, body: { type: "url", url: "http://10.0.0.1/", validations: ["page-title"] } },
      ],
      ["get", "/api/jobs?jobId=job_nope", "/api/jobs", { key: true }],
      ["get", "/api/jobs?status=done", "/api/jobs", { key: true }],
      ["get", "/api/captures/nope.jpg", "/api/captures/{key}", { key: true }],
      ["get", "/api/captures/nope.jpg/shared?expires=1&signature=x", "/api/captures/{key}/shared"],
      ["get", "/api/feedback/due", "/api/feedback/due"],
      ["get", "/api/email-clients", "/api/email-clients"],
      ["get", "/api/feedback/questions", "/api/feedback/questions"],
      ["post", "/api/feedback", "/api/feedback", { key: true, body: { setId: "fs_1", answers: [] } }],
      ["post", "/api/feedback", "/api/feedback", { key: true, body: { answers: [] } }],
    ];
    for (const [method, url, path, opts = {}] of cases) {
      const res = await server.api(method.toUpperCase(), url, {
        ...(opts.key ? { key } : {}),
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        ...(opts.rawBody !== undefined
          ? { rawBody: opts.rawBody, headers: { "content-type": "application/json" } }
          : {}),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      const listed: string[] = doc.paths[path][method]["x-error-codes"];
      expect([method, url, res.body.code, listed.includes(res.body.code)]).toEqual([method, url, res.body.code, true]);
    }
  });
});
