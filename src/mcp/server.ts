import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors/app-error";
import type { Services } from "../services/facade";
import type { Principal } from "../services/accounts";
import { readInput } from "../contracts/read-input";
import { jsonSchemaOf } from "../contracts/schema-kit";
import { customerIdOf } from "../operations/authorize";
import { openCall } from "../operations/call";
import { WithContent, argumentsSchema, isTool, type Operation, type ToolOperation } from "../operations/operation";
import pkg from "../../package.json";

/** Protocol versions /mcp negotiates (the SDK's): the client's if listed, else the latest. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

const MCP_INSTRUCTIONS = [
  "Assay is a headless QA agent for webpages and emails: one subject per job (a URL, HTML with a base URL, or an email), one verdict per check: pass, fail (with the reason to fix) or error (the check could not run: not a verdict, refunded).",
  "Discovery tools need no key. Without a key, ask the user for their email and call create_account; the API key it returns is shown once. Then send it as Authorization: Bearer <key>.",
  "Pick checks with recommend_checks or search_validations, check the body with check_job_request, then run_job. Email jobs answer pending with a testEmail address: have the real message sent there and call await_email_job.",
  "Never invent business facts (postal address, unsubscribe URL, sender domain, required text, brand colours): ask the user.",
  "Refusals are tool errors carrying a stable code (see explain_error); branch on code, not on message.",
].join("\n");

/** The tool list as published (tools/list): input schemas are the TypeBox schemas themselves. */
function toolList(operations: readonly Operation[]): Tool[] {
  return operations.filter(isTool).map(({ mcp, auth, input }) => ({
    name: mcp.name,
    title: mcp.title,
    description: `${mcp.description}${auth.kind === "key" ? ` Needs an API key with the ${auth.scope} scope.` : auth.kind === "optional" ? ` Works without a key; a key with the ${auth.scope} scope adds to it.` : " No key needed."}`,
    inputSchema: jsonSchemaOf(argumentsSchema(input)) as Tool["inputSchema"],
    annotations: mcp.annotations,
  }));
}

const toolNamed = (operations: readonly Operation[], name: string): ToolOperation | undefined =>
  operations.filter(isTool).find((op) => op.mcp.name === name);

/** Whether this call needs a Bearer key before it can run (answered with HTTP 401 and WWW-Authenticate when absent). */
function callNeedsKey(op: Operation, args: unknown): boolean {
  if (op.auth.kind === "key") return true;
  if (op.auth.kind !== "optional" || !op.auth.needsKey) return false;
  const a = args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  try {
    return op.auth.needsKey(a);
  } catch {
    return true;
  }
}

function errorResult(e: AppError, requestId: string): CallToolResult {
  const body = e.toBody(requestId);
  const essentials = { code: body.code, message: body.message, ...(body.details ? { details: body.details } : {}) };
  return {
    isError: true,
    content: [{ type: "text", text: `${body.code}: ${body.message}\n${JSON.stringify(essentials)}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

interface McpCall {
  services: Services;
  operations: readonly Operation[];
  requestId: string;
  authorization: string | null;
  clientAddress?: string;
  signal?: AbortSignal;
}

/**
 * Runs one tools/call: arguments validated by the tool's schema (a job body by the planner), then the key, its
 * scope and organization for a key tool, then the handler; refusals are tool errors.
 */
async function callTool(name: string, args: unknown, ctx: McpCall): Promise<CallToolResult> {
  const op = toolNamed(ctx.operations, name);
  if (!op)
    throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; tools/list names them all.`);
  try {
    const input = op.input.rawBody ? (args ?? {}) : readInput(argumentsSchema(op.input), args);
    const call = openCall(op, { ...ctx, channel: "mcp" });
    if (op.auth.kind === "key") call.authorize(customerIdOf(input));
    const output = await op.handle(input, call);
    if (output instanceof Response) throw new Error(`${op.operationId} answers HTTP only`);
    const { data, content } = output instanceof WithContent ? output : { data: output, content: [] };
    return {
      content: [
        { type: "text", text: op.mcp.summary(data, input) },
        ...content,
        { type: "text", text: JSON.stringify(data) },
      ],
      structuredContent: data,
    };
  } catch (e) {
    if (e instanceof AppError) return errorResult(e, ctx.requestId);
    console.error(`[${ctx.requestId}] MCP tool ${name}:`, e);
    return errorResult(
      new AppError("INTERNAL_ERROR", "Something went wrong on our side.", undefined, undefined, true),
      ctx.requestId,
    );
  }
}

function serverFor(
  services: Services,
  operations: readonly Operation[],
  requestId: string,
  authorization: string | null,
  clientAddress?: string,
): Server {
  const server = new Server(
    { name: "assay", title: "Assay", version: pkg.version, websiteUrl: services.config.publicBaseUrl },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(operations) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params.name, request.params.arguments, {
      services,
      operations,
      requestId,
      authorization,
      clientAddress,
      signal: extra.signal,
    }),
  );
  return server;
}

const protectedResourceMetadataUrl = (services: Services) =>
  `${services.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;

function unauthorized(services: Services, e: AppError, requestId: string, invalidToken: boolean): Response {
  const challenge = [
    `Bearer resource_metadata="${protectedResourceMetadataUrl(services)}"`,
    ...(invalidToken ? ['error="invalid_token"', `error_description="${e.message.replace(/"/g, "'")}"`] : []),
  ].join(", ");
  return Response.json(e.toBody(requestId), {
    status: 401,
    headers: { "www-authenticate": challenge, "x-request-id": requestId },
  });
}

/**
 * A tools/call whose name is not a string or whose arguments are not an object: invalid params (-32602) with the
 * request's id. The SDK would answer these as internal errors (-32603), as if the fault were ours.
 */
function malformedToolCall(message: unknown): { id: string | number | null; message: string } | null {
  const m = message as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  if (m?.method !== "tools/call") return null;
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  const args = m.params?.arguments;
  if (typeof m.params?.name !== "string")
    return {
      id,
      message: "Invalid params: tools/call needs params.name, the tool's name (a string); tools/list names them all.",
    };
  if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
    return {
      id,
      message: `Invalid params: the arguments of ${m.params.name} must be an object of named arguments; tools/list gives its inputSchema.`,
    };
  return null;
}

const rpcError = (status: number, code: number, message: string, requestId: string) =>
  Response.json(
    { jsonrpc: "2.0", error: { code, message }, id: null },
    { status, headers: { "x-request-id": requestId } },
  );

/**
 * POST /mcp: one stateless exchange per request with JSON responses. A Bearer key, when sent, must be valid
 * (else 401 invalid_token); a tools/call of a tool that needs a key, without one, is 401 with the
 * protected-resource metadata in WWW-Authenticate, before the tool protocol is spoken.
 */
export async function handleMcp(
  services: Services,
  operations: readonly Operation[],
  request: Request,
  rawBody: unknown,
  requestId: string,
  clientAddress?: string,
): Promise<Response> {
  if (request.method !== "POST") {
    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    return new Response(
      JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages to /mcp." },
        id: null,
      }),
      {
        status: 405,
        headers: { allow: "POST", "content-type": "application/json", "x-request-id": requestId },
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = typeof rawBody === "string" ? JSON.parse(rawBody) : rawBody;
    if (parsed === undefined) throw new Error("empty body");
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON.", requestId);
  }
  const malformed = (Array.isArray(parsed) ? parsed : [parsed]).map(malformedToolCall).find((m) => m !== null);
  if (malformed)
    return Response.json(
      { jsonrpc: "2.0", id: malformed.id, error: { code: RpcErrorCode.InvalidParams, message: malformed.message } },
      { headers: { "x-request-id": requestId } },
    );
  let principal: Principal | undefined;
  const authorization = request.headers.get("authorization");
  if (authorization) {
    try {
      principal = services.accounts.authenticate(authorization);
    } catch (e) {
      if (e instanceof AppError) return unauthorized(services, e, requestId, true);
      throw e;
    }
  }
  if (!principal) {
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
      if (m?.method !== "tools/call" || typeof m.params?.name !== "string") continue;
      const op = toolNamed(operations, m.params.name);
      if (op && callNeedsKey(op, m.params.arguments)) {
        const e = new AppError(
          "AUTH_REQUIRED",
          `${op.mcp.name} needs an API key: send Authorization: Bearer <API_KEY>. create_account opens a free account.`,
          {
            reason: "missing",
            tool: op.mcp.name,
            resourceMetadata: protectedResourceMetadataUrl(services),
          },
        );
        return unauthorized(services, e, requestId, false);
      }
    }
  }
  const server = serverFor(services, operations, requestId, authorization, clientAddress);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const authInfo = principal
      ? {
          token: "redacted",
          clientId: principal.key.keyId,
          scopes: [...principal.key.scopes],
          extra: { customerId: principal.customerId },
        }
      : undefined;
    const response = await transport.handleRequest(request, { parsedBody: parsed, authInfo });
    const headers = new Headers(response.headers);
    headers.set("x-request-id", requestId);
    return new Response(response.body, { status: response.status, headers });
  } finally {
    void server.close();
  }
}
