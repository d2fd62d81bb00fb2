import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { eventCount, runCli, scratchDirs, startServer, type TestServer } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * The operator's commands on the PostgreSQL log, as subprocesses: `assay migrate-store` copies a SQLite log and
 * verifies the copy end to end (and refuses a database that holds a log); a node on the copy serves the same
 * balances; `assay replay` and `assay ledger verify` run on it; and tampering with an event in PostgreSQL (past
 * the trigger that refuses UPDATE) is found at its position.
 */
setDefaultTimeout(120_000);

let postgres: TestPostgres;
const scratch = scratchDirs();
const dir = scratch.next;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  scratch.removeAll();
});

/** A SQLite server's log with three organizations, one given credits and one charged by the operator; their balances. */
async function sqliteLog(): Promise<{
  dataDir: string;
  accounts: Array<{ apiKey: string; balance: number }>;
  events: number;
}> {
  const dataDir = dir();
  const server = await startServer({ DATA_DIR: dataDir });
  const accounts: Array<{ apiKey: string; balance: number }> = [];
  try {
    const signups = [await server.signup(), await server.signup(), await server.signup()];
    await server.assay.operator.grantCredits(signups[0]!.customerId, 250, "migration test");
    await server.assay.operator.deductCredits(signups[1]!.customerId, 40, "migration test");
    for (const s of signups)
      accounts.push({
        apiKey: s.apiKey,
        balance: (await server.api("GET", "/api/credits", { key: s.apiKey })).body.balance,
      });
    return { dataDir, accounts, events: eventCount(server) };
  } finally {
    await server.stop();
  }
}

test("assay migrate-store copies a SQLite log into PostgreSQL, verifies the chain end to end, and refuses a database that already holds a log", async () => {
  const source = await sqliteLog();
  const url = await postgres.createDatabase("migrated");
  const migrated = await runCli(["migrate-store", "--to", url], { DATA_DIR: source.dataDir });
  if (migrated.code !== 0) throw new Error(`migrate-store failed:\n${migrated.stdout}\n${migrated.stderr}`);
  expect(migrated.stdout).toContain(`copied ${source.events} events`);
  expect(migrated.stdout).toContain("chain verified end to end");

  const again = await runCli(["migrate-store", "--to", url], { DATA_DIR: source.dataDir });
  expect(again.code).not.toBe(0);
  expect(again.stderr + again.stdout).toContain("already holds");

  // A node on the copy pulls the log into a fresh data directory and answers with the balances the SQLite server had.
  const node: TestServer = await startServer({ DATA_DIR: dir(), ASSAY_DATABASE_URL: url });
  try {
    for (const a of source.accounts)
      expect((await node.api("GET", "/api/credits", { key: a.apiKey })).body.balance).toBe(a.balance);
    const health = await node.api("GET", "/healthz");
    expect(health.body.store).toEqual({ backend: "postgres", position: source.events });
    expect((await node.api("GET", "/readyz")).status).toBe(200);
  } finally {
    await node.stop();
  }

  const bad = await runCli(["migrate-store", "--to", "mysql://nowhere/db"], { DATA_DIR: source.dataDir });
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain("postgres://");
});

test("assay replay and assay ledger verify run on the PostgreSQL log; an event altered in PostgreSQL is found at its position", async () => {
  const url = await postgres.createDatabase("audited");
  const env = { DATA_DIR: dir(), ASSAY_DATABASE_URL: url };
  const node = await startServer(env);
  try {
    const { customerId } = await node.signup();
    await node.assay.operator.grantCredits(customerId, 70, "audit test");
    await node.signup();
  } finally {
    await node.stop();
  }
  // Another machine's operator: its own data directory, the same database.
  const operator = { DATA_DIR: dir(), ASSAY_DATABASE_URL: url };
  const replay = await runCli(["replay"], operator);
  expect([replay.code, replay.stderr]).toEqual([0, ""]);
  expect(replay.stdout).toMatch(/^replayed \d+ events/);
  const clean = await runCli(["ledger", "verify"], operator);
  if (clean.code !== 0) throw new Error(`ledger verify failed on a clean log:\n${clean.stdout}\n${clean.stderr}`);
  expect(clean.stdout).toContain("ledger verified");

  const sql = new SQL(url, { max: 1 });
  let position: number;
  try {
    const [grant] =
      await sql`SELECT position, data FROM events WHERE type = 'CreditsGranted' AND data LIKE '%audit test%'`;
    position = Number(grant.position);
    const altered = JSON.stringify({ ...JSON.parse(grant.data), amount: 7000 });
    expect(
      await sql`UPDATE events SET data = ${altered} WHERE position = ${position}`.catch((e: Error) => e.message),
    ).toContain("append-only");
    // Only someone who can disable the database's own guard can alter the log; the chain still tells.
    await sql`ALTER TABLE events DISABLE TRIGGER events_no_update`;
    await sql`UPDATE events SET data = ${altered} WHERE position = ${position}`;
  } finally {
    await sql.close();
  }
  const tampered = await runCli(["ledger", "verify", "--json"], { ...operator, DATA_DIR: dir() });
  expect(tampered.code).toBe(1);
  const report = JSON.parse(tampered.stdout);
  expect(report.ok).toBe(false);
  expect(report.problems).toContainEqual({
    position,
    message: "content does not match its hash (the event was altered)",
  });
});

test("a database URL that is not PostgreSQL's, or a node id that is not a name, stops the start naming the variable", async () => {
  const out = await runCli(["replay"], { DATA_DIR: dir(), ASSAY_DATABASE_URL: "sqlite:///tmp/x" });
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain("ASSAY_DATABASE_URL must be a postgres:// URL");
  const badNode = await runCli(["replay"], {
    DATA_DIR: dir(),
    ASSAY_DATABASE_URL: postgres.url,
    ASSAY_NODE_ID: "node one/../x",
  });
  expect(badNode.code).not.toBe(0);
  expect(badNode.stderr).toContain("ASSAY_NODE_ID must be 1 to 64 letters");
});
