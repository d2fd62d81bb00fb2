import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { errorCatalog } from "../../src/errors/catalog";

/**
 * A catalogued code nobody tests is a promise nobody keeps: every code of src/errors/catalog.ts must be named by
 * some behaviour test (the ones that trigger it through the interface and assert its status and details). Only
 * this file and the generated-docs test are left out, since they name every code by construction.
 */
const NOT_BEHAVIOUR_TESTS = new Set(["test/repo/error-coverage.test.ts", "test/repo/docs.test.ts"]);

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "fixtures" ? [] : testFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

test("every catalogued error code is named by a behaviour test", () => {
  const root = join(import.meta.dir, "..", "..");
  const tests = testFiles(join(root, "test"))
    .filter((f) => !NOT_BEHAVIOUR_TESTS.has(relative(root, f)))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  const untested = errorCatalog.map((e) => e.code).filter((code) => !tests.includes(`"${code}"`));
  expect(untested).toEqual([]);
});
