import type { Command } from "commander";
import { action } from "../../../../src/cli/program";
import { BASE_URL_OPTION } from "./auth";

/** mcp: MCP over stdio, forwarded to a server's /mcp (mcp-proxy.ts, with the MCP SDK, loads only when it runs). */
export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "speak MCP over standard input and output, for agents that launch a command: every tools/list and tools/call is forwarded to the server's /mcp with the key in use (ASSAY_API_KEY, else the stored one), so the tools are the server's. Exit 2 when the server cannot be reached",
    )
    .option(...BASE_URL_OPTION)
    .action(action(async (opts: { baseUrl?: string }) => (await import("./mcp-proxy")).mcp(opts)));
}
