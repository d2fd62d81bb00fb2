import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { operations } from "../src/operations";
import { isRoute } from "../src/operations/operation";

/** The README's API table against the operation list: every /api operation is a row with its auth, and nothing else is. */

const README = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");

function tableRows(): Array<{ method: string; path: string; auth: string }> {
  const section = README.slice(README.indexOf("## API overview"));
  const table = section.slice(section.indexOf("| Method | Path | Auth | What |"));
  const lines = table.split("\n");
  const rows = lines.slice(2, lines.findIndex((l, i) => i > 1 && !l.startsWith("|")));
  return rows.flatMap((line) => {
    const [, method, paths, auth] = line.split(/(?<!\\)\|/).map((c) => c.trim());
    return [...paths!.matchAll(/`([^`]+)`/g)].map((m) => ({ method: method!, path: m[1]!, auth: auth!.replace(/`/g, "") }));
  });
}

const authCell = (auth: (typeof operations)[number]["auth"]) =>
  auth.kind === "public" ? "none" : auth.kind === "session" ? "session" : auth.scope;

test("README's API table lists exactly the /api operations, each with its auth", () => {
  const documented = tableRows()
    .filter((r) => r.path.startsWith("/api/"))
    .map((r) => `${r.method} ${r.path} ${r.auth}`)
    .sort();
  const declared = operations
    .filter(isRoute)
    .map((op) => `${op.http.method.toUpperCase()} ${op.http.path} ${authCell(op.auth)}`)
    .sort();
  expect(documented).toEqual(declared);
});

test("its other rows are the documents outside /api the HTTP app serves", () => {
  expect(tableRows().filter((r) => !r.path.startsWith("/api/")).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /healthz", "GET /readyz", "POST /mcp"]);
});
