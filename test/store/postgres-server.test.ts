import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * The PostgreSQL that the tests of the shared event log (issue 16) run against is a real server, started by the
 * test itself from Debian's packages: it answers, holds a table across connections, and is gone after stop().
 */
let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

test("a throwaway PostgreSQL cluster answers on loopback and keeps what one connection wrote for another", async () => {
  const writer = new SQL(pg.url);
  const reader = new SQL(pg.url);
  try {
    const [{ server_version_num }] = await writer`SHOW server_version_num`;
    expect(Number(server_version_num)).toBeGreaterThanOrEqual(150000);
    await writer`CREATE TABLE probe (n integer PRIMARY KEY)`;
    await writer`INSERT INTO probe VALUES (1), (2)`;
    const rows = await reader`SELECT n FROM probe ORDER BY n`;
    expect(rows.map((r: { n: number }) => r.n)).toEqual([1, 2]);
  } finally {
    await Promise.all([writer.close(), reader.close()]);
  }
});
