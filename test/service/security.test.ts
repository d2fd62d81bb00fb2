import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { eventCount as eventsIn, runCli, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { inSession, signIn, startMailRelay, type MailRelay, type SignedIn } from "../support/mail-relay";
import { checkToolResult } from "../support/contracts";
import { httpRequestFor } from "../support/operation-requests";
import { operations } from "../../src/operations";
import { isTool, type Operation } from "../../src/operations/operation";
import { ALL_SCOPES } from "../../src/domain/accounts";
import { errorEntry } from "../../src/errors/catalog";

/**
 * The security suite, by construction: every operation that takes a key, on each surface it has, with its own
 * example input, is refused without a key, with a malformed key, with a revoked key, with a key lacking its scope,
 * and for another organization's customerId. A new key operation gets these tests by being in the list.
 * Every session operation is refused without a session, with an API key (a key may only revoke itself), and,
 * when it changes state, without the session's CSRF token; MCP never offers one.
 * Nothing refused may leave a trace: the event log is the same length after every refusal.
 */

type Keyed = Operation & { auth: { kind: "key" | "optional"; scope: (typeof ALL_SCOPES)[number] } };
const keyed = operations.filter((op): op is Keyed => op.auth.kind === "key" || op.auth.kind === "optional");
/** Whether the example needs a key at all (an optional operation may work without one). */
const needsKey = (op: Keyed) =>
  op.auth.kind === "key" || !!(op.auth.kind === "optional" && op.auth.needsKey?.(op.example));

const sessionOps = operations.filter((op) => op.auth.kind === "session");

let relay: MailRelay;
let server: TestServer;
let signedIn: SignedIn;
let owner: { apiKey: string; customerId: string };
let stranger: { customerId: string };
let revokedKey: string;
const scopeless = new Map<string, string>();

const eventCount = () => eventsIn(server);

beforeAll(async () => {
  relay = await startMailRelay();
  server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url });
  owner = await server.signup();
  stranger = await server.signup();
  for (const scope of ALL_SCOPES) {
    const others = ALL_SCOPES.filter((s) => s !== scope);
    scopeless.set(scope, (await server.assay.operator.mintKey(owner.customerId, `without ${scope}`, others)).apiKey);
  }
  const doomed = await server.assay.operator.mintKey(owner.customerId, "revoked", [...ALL_SCOPES]);
  const out = await runCli(["key", "revoke", "--key", doomed.keyId], server.env);
  expect([out.code, out.stderr]).toEqual([0, ""]);
  expect(JSON.parse(out.stdout)).toEqual({ keyId: doomed.keyId, customerId: owner.customerId });
  revokedKey = doomed.apiKey;
  signedIn = await signIn(server, relay, uniqueEmail("security"));
});
afterAll(async () => {
  await server.stop();
  await relay.stop();
});

async function viaHttp(op: Keyed, authorization: string | undefined, extra?: Record<string, unknown>) {
  const { method, url, body } = httpRequestFor(op, { ...op.example, ...extra });
  return server.api(method, url, {
    ...(body !== undefined ? { body } : {}),
    ...(authorization ? { headers: { authorization } } : {}),
  });
}

async function viaMcp(op: Keyed, authorization: string | undefined, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: op.mcp!.name, arguments: { ...op.example, ...extra } },
    }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** Refused at the door: 401 AUTH_REQUIRED on both surfaces (on MCP, before the tool protocol, with the challenge). */
async function expectUnauthenticated(op: Keyed, authorization: string | undefined, invalidToken: boolean) {
  const before = eventCount();
  if (op.http) {
    const res = await viaHttp(op, authorization);
    expect([op.operationId, res.status, res.body.code]).toEqual([op.operationId, 401, "AUTH_REQUIRED"]);
  }
  if (op.mcp) {
    const res = await viaMcp(op, authorization);
    expect([op.mcp.name, res.status, res.body.code]).toEqual([op.mcp.name, 401, "AUTH_REQUIRED"]);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge.includes('error="invalid_token"')).toBe(invalidToken);
  }
  expect(eventCount()).toBe(before);
}

/** Refused by the operation: the code on HTTP with its status, and as a tool error on MCP. */
async function expectRefused(
  op: Keyed,
  apiKey: string,
  code: "INSUFFICIENT_SCOPE" | "CUSTOMER_SCOPE_MISMATCH",
  extra?: Record<string, unknown>,
) {
  const before = eventCount();
  const authorization = `Bearer ${apiKey}`;
  if (op.http) {
    const res = await viaHttp(op, authorization, extra);
    expect([op.operationId, res.status, res.body.code]).toEqual([op.operationId, errorEntry(code).status, code]);
  }
  if (op.mcp) {
    const res = await viaMcp(op, authorization, extra);
    expect(res.status).toBe(200);
    const result = res.body.result;
    checkToolResult(op.mcp.name, result);
    expect([op.mcp.name, result.isError, result.structuredContent.code]).toEqual([op.mcp.name, true, code]);
  }
  expect(eventCount()).toBe(before);
}

test("every keyed operation is here, each with a surface", () => {
  expect(keyed.length).toBeGreaterThanOrEqual(15);
  for (const op of keyed) expect([op.operationId, !!(op.http || op.mcp)]).toEqual([op.operationId, true]);
});

for (const op of keyed) {
  describe(`${op.operationId}${op.mcp ? ` / ${op.mcp.name}` : ""} (${op.auth.kind}, ${op.auth.scope})`, () => {
    if (needsKey(op)) {
      test("no key: 401 AUTH_REQUIRED", () => expectUnauthenticated(op, undefined, false));
    }
    test("a malformed key: 401 AUTH_REQUIRED", () => expectUnauthenticated(op, "Bearer not a key", true));
    test("a revoked key: 401 AUTH_REQUIRED", () => expectUnauthenticated(op, `Bearer ${revokedKey}`, true));
    test("a key without the scope: 403 INSUFFICIENT_SCOPE", () =>
      expectRefused(op, scopeless.get(op.auth.scope)!, "INSUFFICIENT_SCOPE"));
    test("another organization's customerId: 403 CUSTOMER_SCOPE_MISMATCH", () =>
      expectRefused(op, owner.apiKey, "CUSTOMER_SCOPE_MISMATCH", { customerId: stranger.customerId }));
  });
}

/** Refused on HTTP with this status and code, leaving no event. */
async function expectHttpRefusal(op: Operation, headers: Record<string, string>, status: number, code: string) {
  const before = eventCount();
  const { method, url, body } = httpRequestFor(op, op.example);
  const res = await server.api(method, url, { ...(body !== undefined ? { body } : {}), headers });
  expect([op.operationId, res.status, res.body.code]).toEqual([op.operationId, status, code]);
  expect(eventCount()).toBe(before);
}

test("the session operations are here, on HTTP only", () => {
  expect(sessionOps.map((op) => op.operationId).sort()).toEqual(
    [
      "addMember",
      "deleteKey",
      "getSession",
      "mintKey",
      "revokeKey",
      "rotateKey",
      "signOut",
      "switchOrganization",
      "listMembers",
      "inviteMember",
      "changePlan",
      "acceptInvitation",
      "changeMemberRole",
      "removeMember",
      "leaveOrganization",
    ].sort(),
  );
  for (const op of sessionOps) expect([op.operationId, !!op.http, isTool(op)]).toEqual([op.operationId, true, false]);
});

for (const op of sessionOps) {
  describe(`${op.operationId} (session${op.auth.kind === "session" && op.auth.ownKey ? ", or its own key" : ""})`, () => {
    test("no session: 401 AUTH_REQUIRED", () => expectHttpRefusal(op, {}, 401, "AUTH_REQUIRED"));
    test("an ended or made-up session cookie: 401 AUTH_REQUIRED", () =>
      expectHttpRefusal(
        op,
        { cookie: "assay_session=0123456789012345678901234567890123456789abc" },
        401,
        "AUTH_REQUIRED",
      ));
    if (op.auth.kind === "session" && op.auth.ownKey) {
      test("an API key acting on another key: 403 SELF_REVOKE_ONLY", () =>
        expectHttpRefusal(op, { authorization: `Bearer ${owner.apiKey}` }, 403, "SELF_REVOKE_ONLY"));
    } else {
      test("an API key, even beside the session cookie: 401 AUTH_REQUIRED", async () => {
        await expectHttpRefusal(op, { authorization: `Bearer ${owner.apiKey}` }, 401, "AUTH_REQUIRED");
        await expectHttpRefusal(
          op,
          { ...inSession(signedIn), authorization: `Bearer ${owner.apiKey}` },
          401,
          "AUTH_REQUIRED",
        );
      });
    }
    if (op.http!.method !== "get") {
      test("the session without its CSRF token: 403 CSRF_TOKEN_INVALID", () =>
        expectHttpRefusal(op, inSession(signedIn, null), 403, "CSRF_TOKEN_INVALID"));
    }
  });
}

test("nothing was charged or created for either organization", async () => {
  for (const org of [owner, stranger]) {
    expect(server.assay.jobs.list(org.customerId, {}).jobs).toEqual([]);
    const credits = await server.assay.accounts.credits(org.customerId);
    expect([credits.balance, credits.ledger.length]).toEqual([server.assay.config.signupCredits, 1]);
  }
});

/**
 * Every operation a caller without a credential may reach, with what bounds what it appends: the per-address
 * limits (429 codes) it must declare, or why it appends nothing. A new one fails here until it is placed.
 */
const WITHOUT_CREDENTIAL: Record<string, { limits: string[] } | { appendsNothing: string }> = {
  signup: { limits: ["SIGNUP_RATE_LIMITED"] },
  requestSignInLink: { limits: ["SIGNIN_RATE_LIMITED", "SIGNUP_RATE_LIMITED"] },
  completeSignIn: { limits: ["SESSION_START_RATE_LIMITED", "SIGNUP_RATE_LIMITED"] },
  completeOidcSignIn: { limits: ["SESSION_START_RATE_LIMITED", "SIGNUP_RATE_LIMITED"] },
  openInvitation: { limits: ["SESSION_START_RATE_LIMITED"] },
  requestDeviceCode: { limits: ["DEVICE_CODE_RATE_LIMITED"] },
  exchangeDeviceCode: {
    appendsNothing: "only redeeming a code a signed-in person approved appends; slow_down is kept in memory",
  },
  startOidcSignIn: { appendsNothing: "the sign-in under way is kept in memory, at most 10,000" },
  runPlayground: { appendsNothing: "runs are kept in memory (and limited per session and per address)" },
  ...Object.fromEntries(
    [
      "searchValidations",
      "listValidations",
      "getValidation",
      "recommendChecks",
      "compareChecks",
      "listValidationSets",
      "getValidationSet",
      "describeJobRequest",
      "checkJobRequest",
      "listErrors",
      "explainError",
      "getOpenApi",
      "getSharedCapture",
      "fetchCapture",
      "getPlaygroundRun",
      "getPlaygroundScreenshot",
    ].map((id) => [id, { appendsNothing: "it only reads" }]),
  ),
};

test("every operation reachable without a credential either appends nothing or declares its per-address limits", () => {
  const open = operations.filter((op) => op.auth.kind === "public" || op.auth.kind === "optional");
  expect(open.map((op) => op.operationId).sort()).toEqual(Object.keys(WITHOUT_CREDENTIAL).sort());
  for (const op of open) {
    const bound = WITHOUT_CREDENTIAL[op.operationId]!;
    if ("limits" in bound) {
      for (const code of bound.limits) {
        expect([op.operationId, code, errorEntry(code as never).status]).toEqual([op.operationId, code, 429]);
        expect(op.errors).toContain(code as never);
      }
    }
  }
});
