import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { validationModules } from "../../../src/catalog/registry";

const webIds = validationModules.filter((m) => m.meta.subjectType === "url").map((m) => m.meta.id);
const testFiles = readdirSync(import.meta.dir).filter((f) => f.endsWith(".test.ts"));

test("every web check in the registry has its unit test file here", () => {
  expect(webIds.length).toBeGreaterThan(0);
  expect(webIds.filter((id) => !testFiles.includes(`${id}.test.ts`))).toEqual([]);
});

test("every unit test file here belongs to a web check in the registry", () => {
  const own = new Set([...webIds.map((id) => `${id}.test.ts`), "every-check.test.ts"]);
  expect(testFiles.filter((f) => !own.has(f))).toEqual([]);
});
