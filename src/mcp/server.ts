import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import type { Principal } from "../services/accounts";
import { jsonSchemaOf } from "../contracts/inputs";
import { callNeedsKey, toolArguments, tools, toolsByName, type ToolCall } from "./tools";
import pkg from "../../package.json";

/** Protocol versions /mcp negotiates (the SDK's): the client's if listed, else the latest. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export const MCP_LATEST_PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

export const MCP_INSTRUCTIONS = [
  "Assay is a headless QA agent for webpages and emails: one subject per job (a URL, HTML with a base URL, or an email), one verdict per check: pass, fail (with the reason to fix) or error (the check could not run: not a verdict, refunded).",
  "Discovery tools need no key. Without a key, ask the user for their email and call create_account; the API key it returns is shown once. Then send it as Authorization: Bearer <key>.",
  "Pick checks with recommend_checks or search_validations, check the body with check_job_request, then run_job. Email jobs answer pending with a testEmail address: have the real message sent there and call await_email_job.",
  "Never invent business facts (postal address, unsubscribe URL, sender domain, required text, brand colours): ask the user.",
  "Refusals are tool errors carrying a stable code (see explain_error); branch on code, not on message.",
].join("\n");

/** The tool list as published (tools/list): input schemas are the TypeBox schemas themselves. */
export function toolList(): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: `${t.description}${t.auth === "key" ? ` Needs an API key with the ${t.scope} scope.` : t.auth === "optional" ? ` Works without a key; a key with the ${t.scope} scope adds to it.` : " No key needed."}`,
    inputSchema: jsonSchemaOf(t.input) as Tool["inputSchema"],
    annotations: t.annotations,
  }));
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

/** Runs one tools/call: arguments validated by the tool's schema, the same services as HTTP, refusals as tool errors. */
export async function callTool(name: string, args: unknown, call: ToolCall): Promise<CallToolResult> {
  const tool = toolsByName.get(name);
  if (!tool) throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; tools/list names them all.`);
  try {
    const output = await tool.run(toolArguments(tool, args), { ...call, scope: tool.scope });
    return {
      content: [{ type: "text", text: output.summary }, ...(output.content ?? []), { type: "text", text: JSON.stringify(output.data) }],
      structuredContent: output.data,
    };
  } catch (e) {
    if (e instanceof AppError) return errorResult(e, call.requestId);
    console.error(`[${call.requestId}] MCP tool ${name}:`, e);
    return errorResult(new AppError("INTERNAL_ERROR", "Something went wrong on our side.", undefined, undefined, true), call.requestId);
  }
}

function serverFor(assay: Assay, requestId: string, principal: Principal | undefined): Server {
  const server = new Server(
    { name: "assay", title: "Assay", version: pkg.version, websiteUrl: assay.config.publicBaseUrl },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params.name, request.params.arguments, { assay, requestId, principal, signal: extra.signal }),
  );
  return server;
}

export const protectedResourceMetadataUrl = (assay: Assay) => `${assay.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;

function unauthorized(assay: Assay, e: AppError, requestId: string, invalidToken: boolean): Response {
  const challenge = [
    `Bearer resource_metadata="${protectedResourceMetadataUrl(assay)}"`,
    ...(invalidToken ? ['error="invalid_token"', `error_description="${e.message.replace(/"/g, "'")}"`] : []),
  ].join(", ");
  return Response.json(e.toBody(requestId), {
    status: 401,
    headers: { "www-authenticate": challenge, "x-request-id": requestId },
  });
}

const rpcError = (status: number, code: number, message: string, requestId: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers: { "x-request-id": requestId } });

/**
 * POST /mcp: one stateless exchange per request with JSON responses. A Bearer key, when sent, must be valid
 * (else 401 invalid_token); a tools/call of a tool that needs a key, without one, is 401 with the
 * protected-resource metadata in WWW-Authenticate, before the tool protocol is spoken.
 */
export async function handleMcp(assay: Assay, request: Request, rawBody: unknown, requestId: string): Promise<Response> {
  if (request.method !== "POST") {
    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages to /mcp." }, id: null }), {
      status: 405,
      headers: { allow: "POST", "content-type": "application/json", "x-request-id": requestId },
    });
  }
  let parsed: unknown;
  try {
    parsed = typeof rawBody === "string" ? JSON.parse(rawBody) : rawBody;
    if (parsed === undefined) throw new Error("empty body");
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON.", requestId);
  }
  let principal: Principal | undefined;
  const authorization = request.headers.get("authorization");
  if (authorization) {
    try {
      principal = assay.accounts.authenticate(authorization);
    } catch (e) {
      if (e instanceof AppError) return unauthorized(assay, e, requestId, true);
      throw e;
    }
  }
  if (!principal) {
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
      if (m?.method !== "tools/call" || typeof m.params?.name !== "string") continue;
      const tool = toolsByName.get(m.params.name);
      if (tool && callNeedsKey(tool, m.params.arguments)) {
        const e = new AppError("AUTH_REQUIRED", `${tool.name} needs an API key: send Authorization: Bearer <API_KEY>. create_account opens a free account.`, {
          reason: "missing",
          tool: tool.name,
          resourceMetadata: protectedResourceMetadataUrl(assay),
        });
        return unauthorized(assay, e, requestId, false);
      }
    }
  }
  const server = serverFor(assay, requestId, principal);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const authInfo = principal ? { token: "redacted", clientId: principal.key.keyId, scopes: [...principal.key.scopes], extra: { customerId: principal.customerId } } : undefined;
    const response = await transport.handleRequest(request, { parsedBody: parsed, authInfo });
    const headers = new Headers(response.headers);
    headers.set("x-request-id", requestId);
    return new Response(response.body, { status: response.status, headers });
  } finally {
    void server.close();
  }
}
