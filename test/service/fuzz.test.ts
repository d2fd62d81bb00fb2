import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { generateSync, type JsonSchema } from "json-schema-faker";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { eventCount as eventsIn, uniqueEmail } from "../support/harness";
import { inSession, signIn, startServerWithRelay, type SignedIn } from "../support/mail-relay";
import { httpRequestFor } from "../support/operation-requests";
import { operations } from "../../src/operations";
import { isRoute, isTool, type Operation } from "../../src/operations/operation";
import { ALL_SCOPES } from "../../src/domain/accounts";

/**
 * Fuzzing every operation on every surface: arguments generated from the operation's own input schema (HTTP: its
 * path, query and body schemas; MCP: the inputSchema tools/list publishes), and malformed ones (a field of the
 * wrong shape, a body that is any JSON value, a body that is not JSON). Whatever comes, the server answers a
 * result or a catalogued error, never a 500; a refused call leaves the event log as it was, so nothing is charged
 * and no job is created for it. The organization has no credits, so a valid job request is planned in full and
 * refused at the charge (402) instead of running a browser.
 */

const RUNS = 12;
const SERVER_FAULTS = new Set(["INTERNAL_ERROR", "JOB_EXECUTION_FAILED"]);

let stack: Awaited<ReturnType<typeof startServerWithRelay>>;
let apiKey: string;
let customerId: string;
let session: SignedIn;
let mcp: Client;

const eventCount = () => eventsIn(stack.server);

beforeAll(async () => {
  // One playground run per address: a generated playground body may be valid, and one browser run is enough.
  stack = await startServerWithRelay({ ASSAY_SIGNUP_CREDITS: "0", ASSAY_PLAYGROUND_RUNS_PER_ADDRESS: "1" });
  const { server } = stack;
  ({ customerId } = await server.signup());
  const balance = (
    await server.api("GET", "/api/credits", {
      key: (await server.assay.operator.mintKey(customerId, "reader", [...ALL_SCOPES])).apiKey,
    })
  ).body;
  if (balance.balance > 0)
    await server.assay.operator.deductCredits(customerId, balance.balance, "fuzzing runs without credits");
  apiKey = (await server.assay.operator.mintKey(customerId, "fuzz", [...ALL_SCOPES])).apiKey;
  session = await signIn(server, stack.relay, uniqueEmail("fuzz"));
  mcp = new Client({ name: "assay-fuzz", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await stack.stop();
});

/** The one object schema an operation's arguments follow: its path, query and body fields together. */
function argumentSchema(op: Operation): JsonSchema {
  const parts = [op.input.path, op.input.query, op.input.body].filter(Boolean);
  return {
    type: "object",
    properties: Object.assign({}, ...parts.map((p) => p!.properties)),
    required: parts.flatMap((p) => p!.required ?? []),
  } as JsonSchema;
}

/** Arguments generated from a schema with the seed fast-check chose; the operation's example when the generator cannot follow the schema. */
function generated(schema: JsonSchema, seed: number, fallback: Record<string, unknown>): Record<string, unknown> {
  try {
    const value = generateSync(schema, { seed, optionalsProbability: 0.6, maxItems: 4, maxLength: 80 });
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : fallback;
  } catch {
    return fallback;
  }
}

/** Arguments that break the schema: the example with one field of any other shape, or with extra fields. */
const malformedArguments = (example: Record<string, unknown>) =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom(...(Object.keys(example).length ? Object.keys(example) : ["x"])), fc.jsonValue())
      .map(([k, v]) => ({ ...example, [k]: v })),
    fc
      .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
      .map((extra) => ({ ...example, ...extra })),
  );

/** Keeps the caller's own organization in half of the generated calls, so they reach past the tenant check. */
const withOwnTenant = (args: Record<string, unknown>, own: boolean) =>
  "customerId" in args && own ? { ...args, customerId } : args;

/** The example's path and query arguments alone (the body is sent raw). */
const pathAndQueryOf = (op: Operation) =>
  Object.fromEntries(
    Object.entries(op.example).filter(([k]) => op.input.path?.properties[k] || op.input.query?.properties[k]),
  );

const routes = operations.filter(isRoute);
// Signing out last keeps the session the other session operations are fuzzed with.
routes.sort((a, b) => Number(a.operationId === "signOut") - Number(b.operationId === "signOut"));

function headersFor(op: Operation): Record<string, string> {
  if (op.auth.kind === "session") return inSession(session);
  return { authorization: `Bearer ${apiKey}` };
}

/**
 * Sends one HTTP call: the arguments split into path, query and body, or (`rawBody`) the example's path and query
 * with this text as the JSON body. Fails the property when the server faults or a refusal left a trace.
 */
async function httpCall(op: Operation, args: Record<string, unknown>, rawBody?: string): Promise<void> {
  const before = eventCount();
  const { method, url, body } = httpRequestFor(op, args);
  const headers = { ...headersFor(op), "content-type": "application/json" };
  const res = await stack.server.api(
    method,
    url,
    rawBody !== undefined ? { rawBody, headers } : body !== undefined ? { body, headers } : { headers },
  );
  const code = typeof res.body === "object" && res.body ? (res.body as { code?: string }).code : undefined;
  expect({ op: op.operationId, args, status: res.status, code }).not.toMatchObject({ status: 500 });
  expect(SERVER_FAULTS.has(code ?? "")).toBe(false);
  if (res.status >= 400)
    expect({ op: op.operationId, args, events: eventCount() - before }).toEqual({
      op: op.operationId,
      args,
      events: 0,
    });
}

describe("every HTTP operation, fuzzed", () => {
  for (const op of routes) {
    test(`${op.operationId}: generated and malformed calls answer a result or a catalogued error, refusals leave no trace`, async () => {
      const schema = argumentSchema(op);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean(), async (seed, own) => {
          await httpCall(op, withOwnTenant(generated(schema, seed, op.example), own));
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(malformedArguments(op.example), async (args) => httpCall(op, args)),
        { numRuns: RUNS },
      );
      if (op.http!.method !== "get") {
        // The whole body any JSON value, or text that is not JSON at all.
        const bodies = fc.oneof(
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 40 }).map((t) => `{${t}`),
        );
        await fc.assert(
          fc.asyncProperty(bodies, async (text) => httpCall(op, pathAndQueryOf(op), text)),
          { numRuns: RUNS },
        );
      }
    }, 120_000);
  }
});

/** One raw JSON-RPC message to /mcp with the fuzzing key, as a client that does not use the SDK would send it. */
async function rawMcp(message: unknown) {
  const res = await fetch(`${stack.server.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      authorization: `Bearer ${apiKey}`,
    },
    body: JSON.stringify(message),
  });
  return {
    status: res.status,
    reply: (await res.json()) as {
      id?: unknown;
      error?: { code: number; message: string };
      result?: { isError?: boolean; structuredContent?: { code?: string } };
    },
  };
}

describe("every MCP tool, fuzzed", () => {
  test("a tools/call whose arguments are not an object, or whose name is not a string, is invalid params (-32602), not a fault of ours", async () => {
    for (const params of [
      { name: "get_credits", arguments: [] },
      { name: "get_credits", arguments: "" },
      { name: "get_credits", arguments: null },
      { name: 7, arguments: {} },
    ]) {
      const before = eventCount();
      const { status, reply } = await rawMcp({ jsonrpc: "2.0", id: 9, method: "tools/call", params });
      expect([status, reply.id, reply.error?.code]).toEqual([200, 9, -32602]);
      expect(eventCount()).toBe(before);
    }
  });

  test("generated arguments from each tool's published inputSchema, and malformed ones", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.length).toBe(operations.filter(isTool).length);
    for (const tool of tools) {
      const example = operations.filter(isTool).find((o) => o.mcp.name === tool.name)!.example;
      const call = async (args: unknown) => {
        const before = eventCount();
        const { status, reply } = await rawMcp({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: tool.name, arguments: args },
        });
        expect({ tool: tool.name, args, status }).toEqual({ tool: tool.name, args, status: 200 });
        // A JSON-RPC error is a protocol answer (invalid params); a server fault would be -32603.
        expect(reply.error?.code).not.toBe(-32603);
        const code = reply.result?.structuredContent?.code;
        expect({ tool: tool.name, code }).not.toMatchObject({
          code: expect.stringMatching(/^(INTERNAL_ERROR|JOB_EXECUTION_FAILED)$/),
        });
        if (reply.error || reply.result?.isError)
          expect({ tool: tool.name, args, events: eventCount() - before }).toEqual({
            tool: tool.name,
            args,
            events: 0,
          });
      };
      const schema = tool.inputSchema as JsonSchema;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean(), async (seed, own) =>
          call(withOwnTenant(generated(schema, seed, example), own)),
        ),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(malformedArguments(example), fc.jsonValue({ maxDepth: 2 })), async (args) =>
          call(args),
        ),
        { numRuns: RUNS },
      );
    }
  }, 300_000);
});
