import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { operations } from "../../src/operations";
import { isRoute, isTool } from "../../src/operations/operation";

/**
 * docs/api.md's route table against the operation list: every /api operation is a row with its auth, and nothing
 * else is; every MCP tool is documented. (test/repo/docs.test.ts checks that the page is what `npm run docs` writes.)
 */

const API_MD = readFileSync(join(import.meta.dir, "..", "..", "docs", "api.md"), "utf8");

function tableRows(): Array<{ method: string; path: string; auth: string; tool: string }> {
  const table = API_MD.slice(API_MD.indexOf("| Method | Path | Auth | MCP tool | What |"));
  const lines = table.split("\n");
  const rows = lines.slice(
    2,
    lines.findIndex((l, i) => i > 1 && !l.startsWith("|")),
  );
  return rows.map((line) => {
    const [, method, path, auth, tool] = line.split(/(?<!\\)\|/).map((c) => c.trim());
    return {
      method: method!,
      path: /`([^`]+)`/.exec(path!)![1]!,
      auth: auth!.replace(/`/g, ""),
      tool: tool!.replace(/`/g, ""),
    };
  });
}

const authCell = (auth: (typeof operations)[number]["auth"]) =>
  auth.kind === "public"
    ? "none"
    : auth.kind === "session"
      ? "session"
      : auth.kind === "optional"
        ? `none (${auth.scope} adds)`
        : `${auth.scope}${auth.session ? " or session" : ""}`;

test("docs/api.md's route table lists exactly the /api operations, each with its auth and MCP tool", () => {
  const documented = tableRows()
    .filter((r) => r.path.startsWith("/api/"))
    .map((r) => `${r.method} ${r.path} ${r.auth} ${r.tool}`)
    .sort();
  const declared = operations
    .filter(isRoute)
    .map(
      (op) => `${op.http.method.toUpperCase()} ${op.http.path} ${authCell(op.auth)} ${isTool(op) ? op.mcp.name : ""}`,
    )
    .sort();
  expect(documented).toEqual(declared);
});

test("its other rows are the documents outside /api the HTTP app serves", () => {
  expect(
    tableRows()
      .filter((r) => !r.path.startsWith("/api/"))
      .map((r) => `${r.method} ${r.path}`),
  ).toEqual(["GET /healthz", "GET /readyz", "POST /mcp"]);
});

test("every operation has its own section, MCP-only tools included", () => {
  for (const op of operations) {
    const heading = isRoute(op)
      ? `### \`${op.http.method.toUpperCase()} ${op.http.path}\``
      : `### \`${op.mcp!.name}\` (MCP only)`;
    expect([op.operationId, API_MD.includes(`${heading}\n\n${op.summary}.`)]).toEqual([op.operationId, true]);
  }
});
