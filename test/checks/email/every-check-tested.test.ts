import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { validationModules } from "../../../src/catalog/registry";

test("every email check in the registry has its unit test file, test/checks/email/<id>.test.ts", () => {
  const ids = validationModules.filter((m) => m.meta.subjectType === "email").map((m) => m.meta.id);
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.filter((id) => !existsSync(join(import.meta.dir, `${id}.test.ts`)))).toEqual([]);
});
