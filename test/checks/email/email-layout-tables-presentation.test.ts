import { expect, test } from "bun:test";
import { emailLayoutTablesPresentation } from "../../../src/validations/email/email-layout-tables-presentation";
import { evaluate, table, withDom } from "../support/email-artifacts";

const OUTER = "html > body > table";
const CARD = "html > body > table > tbody > tr > td > table";

test('passes layout tables with role="presentation" or role="none"; a data table with header cells needs no role (the fixture\'s near miss)', async () => {
  const tables = [
    table(OUTER),
    table(CARD, { role: "none", depth: 1 }),
    table(`${CARD} > tbody > tr > td > table`, { role: null, dataTable: true, depth: 2 }),
  ];
  const out = await evaluate(emailLayoutTablesPresentation, await withDom({ tables }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe(
    '2 layout table(s) all have role="presentation"; 1 data table(s) with header cells or a caption need none.',
  );
});

test("fails each layout table without the role, naming it and its depth", async () => {
  const tables = [
    table(OUTER, { role: null }),
    table(CARD, { role: "grid", depth: 1 }),
    table(`${CARD} > tbody > tr > td > table`, { depth: 2 }),
  ];
  const out = await evaluate(emailLayoutTablesPresentation, await withDom({ tables }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: '<table> without role="presentation", outermost', selector: OUTER },
    { message: '<table> without role="presentation" (role="grid"), nested 1 deep', selector: CARD },
  ]);
});
