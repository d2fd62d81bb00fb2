import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../package.json" with { type: "json" };
import { EXIT } from "../../../../src/cli/program";
import { keyInUse, probe, serverOf } from "../client";

/**
 * `assay mcp`: MCP over standard input and output, for clients that can only launch a command. A stdio server (the
 * SDK's StdioServerTransport) whose tools/list and tools/call are forwarded, as they are, to the server's /mcp over
 * Streamable HTTP (the SDK's client) with the key in use: the tools are exactly the server's, and so are their
 * answers and refusals. Nothing but the protocol goes to stdout; what it has to say goes to stderr.
 */

/** Long enough for the slowest tool (await_email_job waits up to 120 s, a run_job renders); progress resets it. */
const CALL_TIMEOUT_MS = 10 * 60_000;

/**
 * A call the server refused at the HTTP level (a key tool without a key is 401 with the catalogued AUTH_REQUIRED
 * body) as the tool error a client shows its user: the server's body, and what to do here.
 */
function httpRefusal(e: StreamableHTTPError, baseUrl: string): CallToolResult {
  const text = e.message.slice(e.message.indexOf("{"));
  let body: { code?: string; message?: string; details?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { code: `HTTP_${e.code}`, message: e.message };
  }
  const hint =
    e.code === 401
      ? ` assay mcp has no key the server accepts for ${baseUrl}: run \`assay login --base-url ${baseUrl}\` (or set ASSAY_API_KEY) and restart it.`
      : "";
  const essentials = { code: body.code, message: body.message, ...(body.details ? { details: body.details } : {}) };
  return {
    isError: true,
    content: [{ type: "text", text: `${body.code}: ${body.message}${hint}\n${JSON.stringify(essentials)}` }],
    structuredContent: body as Record<string, unknown>,
  };
}

export async function mcp(opts: { baseUrl?: string }): Promise<number> {
  const { baseUrl, from } = serverOf(opts.baseUrl);
  const key = keyInUse(baseUrl);
  const remote = new Client({ name: "assay-cli", version: pkg.version });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${baseUrl}/mcp`),
    key ? { requestInit: { headers: { authorization: `Bearer ${key.apiKey}` } } } : undefined,
  );
  try {
    await remote.connect(transport);
  } catch (e) {
    const reached = await probe(baseUrl);
    console.error(
      reached.ok
        ? `assay mcp: ${baseUrl}/mcp refused to start a session: ${(e as Error).message}`
        : `assay mcp: UNREACHABLE: Could not reach ${baseUrl} (${from}): ${reached.why}`,
    );
    return EXIT.undecided;
  }
  console.error(
    `assay mcp: forwarding to ${baseUrl}/mcp (${from}), ${key ? `with the key ${key.source === "ASSAY_API_KEY" ? "from ASSAY_API_KEY" : "stored by assay login"}` : "without a key: only the tools that need none will answer; run assay login"}.`,
  );

  const remoteInfo = remote.getServerVersion();
  const server = new Server(
    { ...remoteInfo, name: remoteInfo?.name ?? "assay", version: remoteInfo?.version ?? pkg.version },
    { capabilities: { tools: {} }, instructions: remote.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    remote.request({ method: "tools/list", params: request.params }, ListToolsResultSchema, { signal: extra.signal }),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await remote.request({ method: "tools/call", params: request.params }, CallToolResultSchema, {
        signal: extra.signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
      });
    } catch (e) {
      // A JSON-RPC error (an unknown tool) goes back as it came: its code, data and the message the server sent (the
      // SDK's client prefixed it once; an McpError would prefix it again). A refusal over HTTP becomes a tool error.
      if (e instanceof McpError)
        throw Object.assign(new Error(e.message.replace(`MCP error ${e.code}: `, "")), { code: e.code, data: e.data });
      if (e instanceof StreamableHTTPError) return httpRefusal(e, baseUrl);
      throw new Error(`assay mcp could not reach ${baseUrl}/mcp: ${(e as Error).message}`);
    }
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  // The client closing our standard input ends the session.
  process.stdin.once("end", () => void server.close());
  await closed;
  await remote.close();
  return EXIT.pass;
}
