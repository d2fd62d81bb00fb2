import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, startServer, type TestServer } from "../support/harness";
import { operations } from "../../src/operations";
import { isTool } from "../../src/operations/operation";

const tools = operations.filter(isTool);

/**
 * The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, a devDependency) against the running server,
 * run by the machine's Node, as a developer would. (The `@modelcontextprotocol/inspector` package's own
 * `--cli` mode is version 2 and needs Node >= 22.19, so it does not run on this Node 20 machine.)
 */
const CLI_DIR = join(ROOT, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

async function inspector(args: string[]): Promise<any> {
  // Asynchronous: the server runs on this process's event loop. The working directory is the CLI's own build
  // directory because inspector-cli 1.0.3 tests for its package.json relative to the working directory but
  // imports it relative to itself.
  const proc = Bun.spawn(["node", "index.js", `${server.baseUrl}/mcp`, "--transport", "http", ...args], {
    stdout: "pipe",
    stderr: "pipe",
    cwd: CLI_DIR,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`inspector-cli exited ${code}: ${stderr || stdout}`);
  return JSON.parse(stdout);
}

test("inspector-cli: tools/list shows every tool", async () => {
  const out = await inspector(["--method", "tools/list"]);
  expect(out.tools.map((t: any) => t.name).sort()).toEqual(tools.map((t) => t.mcp.name).sort());
});

test("inspector-cli: tools/call without a key, and with one", async () => {
  const sets = await inspector([
    "--method",
    "tools/call",
    "--tool-name",
    "get_validation_set",
    "--tool-arg",
    "setId=seo",
  ]);
  expect(sets.isError).toBeFalsy();
  expect(sets.structuredContent.id).toBe("seo");
  const credits = await inspector([
    "--method",
    "tools/call",
    "--tool-name",
    "get_credits",
    "--header",
    `Authorization: Bearer ${apiKey}`,
  ]);
  expect(credits.structuredContent.balance).toBe(1000);
});
