import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { installPackedClient, type InstalledClient } from "../support/client-package";
import { eventsOf, startServer, type TestServer } from "../support/harness";

/**
 * `assay mcp`: MCP over stdio for clients that only launch a command. The packed client, installed by npm and run
 * by Node, is launched by the SDK's StdioClientTransport; its tools are the server's /mcp tools exactly (listed
 * side by side through the SDK's HTTP client), and calls reach the server with the key in use: ASSAY_API_KEY, or
 * the one `assay login` stored, which is what an entry written by `assay install` relies on.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 180_000;
const PAGE = `<!doctype html><html lang="en"><head><title>Trailhead boots</title></head><body><h1>Boots</h1></body></html>`;

let client: InstalledClient;
let server: TestServer;
let account: { apiKey: string; customerId: string };
let home: string;
let http: Client;

beforeAll(async () => {
  client = installPackedClient();
  server = await startServer();
  account = await server.signup();
  home = mkdtempSync(join(tmpdir(), "assay-mcp-stdio-"));
  http = new Client({ name: "assay-test-http", version: "1.0.0" });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
}, HOOK_TIMEOUT);
afterAll(async () => {
  await http?.close();
  await server?.stop();
  client?.remove();
  if (home) rmSync(home, { recursive: true, force: true });
}, HOOK_TIMEOUT);

/** The environment an MCP client launches `assay` in: its own PATH (Node and the installed client, no Bun). */
const launchEnv = (extra: Record<string, string> = {}) => ({
  PATH: client.path,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  ...extra,
});

async function stdio(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, cwd: home, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const mcp = new Client({ name: "assay-test-stdio", version: "1.0.0" });
  await mcp.connect(transport);
  return { mcp, stderr: () => stderr };
}

const call = (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
  mcp.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;

test("tools/list and tools/call through the stdio client: the server's tools exactly, its answers and refusals", async () => {
  const { mcp, stderr } = await stdio(
    client.bin,
    ["mcp", "--base-url", server.baseUrl],
    launchEnv({ ASSAY_API_KEY: account.apiKey }),
  );
  try {
    expect(mcp.getServerVersion()).toMatchObject(http.getServerVersion()!);
    expect(mcp.getInstructions()).toBe(http.getInstructions());
    const tools = (await mcp.listTools()).tools;
    expect(tools).toEqual((await http.listTools()).tools);
    expect(tools.map((t) => t.name)).toContain("run_job");

    const listed = await call(mcp, "list_validations");
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual((await call(http, "list_validations")).structuredContent);

    const before = eventsOf(server).length;
    const run = await call(mcp, "run_job", {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: ["page-title", "html-lang"],
    });
    expect(run.isError).toBeFalsy();
    const job = run.structuredContent as {
      jobId: string;
      status: string;
      results: Array<{ validationId: string; verdict: string }>;
    };
    expect(job.status).toBe("completed");
    expect(job.results.map((r) => [r.validationId, r.verdict])).toEqual([
      ["page-title", "pass"],
      ["html-lang", "pass"],
    ]);
    // Run on the server for the key's organization, recorded as an MCP call.
    expect((await server.api("GET", `/api/jobs/${job.jobId}`, { key: account.apiKey })).status).toBe(200);
    const accepted = eventsOf(server)
      .slice(before)
      .find((e) => e.streamId === `job-${job.jobId}`);
    expect(accepted?.metadata.channel).toBe("mcp");

    // A refusal is the server's tool error, its details (the nearest ids) included.
    const typo = await call(mcp, "run_job", {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: ["page-titel"],
    });
    expect(typo.isError).toBe(true);
    expect((typo.structuredContent as any).code).toBe("VALIDATION_NOT_RUNNABLE");
    expect((typo.structuredContent as any).details.suggestions).toEqual({ "page-titel": ["page-title"] });
    // An unknown tool is the server's JSON-RPC error, as an HTTP client gets it.
    const failure = (client: Client) =>
      call(client, "no_such_tool").then(
        () => null,
        (e: Error & { code?: number }) => e,
      );
    const [overStdio, overHttp] = [await failure(mcp), await failure(http)];
    expect(overStdio?.code).toBe(-32602);
    expect(overStdio?.message).toBe(overHttp!.message);
    expect(overStdio?.message).toContain('Unknown tool "no_such_tool"');
    expect(stderr()).toContain(
      `assay mcp: forwarding to ${server.baseUrl}/mcp (--base-url), with the key from ASSAY_API_KEY.`,
    );
  } finally {
    await mcp.close();
  }
});

test("without a key: the tools that need none answer; one that needs a key is a tool error saying how to get one", async () => {
  const { mcp } = await stdio(client.bin, ["mcp", "--base-url", server.baseUrl], launchEnv());
  try {
    expect((await call(mcp, "list_validation_sets")).isError).toBeFalsy();
    const refused = await call(mcp, "get_credits");
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as any).code).toBe("AUTH_REQUIRED");
    const text = (refused.content[0] as { text: string }).text;
    expect(text).toStartWith("AUTH_REQUIRED: ");
    expect(text).toContain(`run \`assay login --base-url ${server.baseUrl}\``);
  } finally {
    await mcp.close();
  }
});

test("the entry `assay install` writes, launched as written, uses the key `assay login --with-token` stored", async () => {
  const assay = async (args: string[], stdin?: string) => {
    const proc = Bun.spawn([client.bin, ...args], {
      cwd: home,
      env: launchEnv({ ASSAY_BASE_URL: server.baseUrl }),
      stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    return { code, stderr };
  };
  expect(await assay(["login", "--with-token"], account.apiKey)).toEqual({ code: 0, stderr: "" });
  expect(await assay(["install", "--client", "claude-code", "--scope", "project"])).toEqual({ code: 0, stderr: "" });
  const entry = JSON.parse(readFileSync(join(home, ".mcp.json"), "utf8")).mcpServers.assay;
  expect(entry).toEqual({ type: "stdio", command: "assay", args: ["mcp", "--base-url", server.baseUrl] });

  // As Claude Code launches it: the command on the PATH, the arguments as written, no key in the environment.
  const { mcp, stderr } = await stdio(entry.command, entry.args, launchEnv());
  try {
    const credits = await call(mcp, "get_credits");
    expect(credits.isError).toBeFalsy();
    expect((credits.structuredContent as { customerId: string }).customerId).toBe(account.customerId);
    expect(stderr()).toContain("with the key stored by assay login");
  } finally {
    await mcp.close();
  }
});
