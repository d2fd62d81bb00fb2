import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";

/**
 * A real PostgreSQL server for one test file: a throwaway cluster (initdb) in a temporary directory, served on a
 * free loopback port, from Debian's packages (`npm test` installs them). PostgreSQL refuses to run as root, so
 * under root the cluster belongs to Debian's `postgres` user and its programs run as that user.
 */
export interface TestPostgres {
  /** postgres://assay@127.0.0.1:<port>/assay, trust authentication on loopback only. */
  url: string;
  /** A fresh, empty database on the same server; answers its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's programs (Debian keeps them out of PATH, under /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, "bin") : null;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: `npm test` installs Debian's postgresql package");
  const dir = mkdtempSync(join(tmpdir(), "assay-pg-"));
  const asRoot = userInfo().uid === 0;
  // Under root, every program runs as Debian's postgres user, which must own the directory. setpriv execs (no
  // process in between), so the server's process is the one this test signals to stop.
  const as = (argv: string[]) =>
    asRoot ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", ...argv] : argv;
  if (asRoot) {
    const owner = Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim();
    const group = Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim();
    chownSync(dir, Number(owner), Number(group));
    chmodSync(dir, 0o700);
  }
  const data = join(dir, "data");
  const init = Bun.spawnSync(
    as([join(bin, "initdb"), "-D", data, "-U", "assay", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]),
  );
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
  const port = await freePort();
  const server = Bun.spawn(as([join(bin, "postgres"), "-D", data, "-k", dir, "-h", "127.0.0.1", "-p", String(port)]), {
    stdout: "ignore",
    stderr: "pipe",
  });
  const url = `postgres://assay@127.0.0.1:${port}/postgres`;
  // Ready when it answers a query (not just when the port opens): the server is up and accepting connections.
  for (let attempt = 0; ; attempt++) {
    const sql = new SQL(url, { max: 1, connectionTimeout: 1 });
    try {
      await sql`SELECT 1`;
      await sql`CREATE DATABASE assay`;
      break;
    } catch (e) {
      if (server.exitCode !== null || attempt >= 100) {
        server.kill();
        throw new Error(
          `PostgreSQL did not start: ${(e as Error).message}; ${await new Response(server.stderr).text()}`,
        );
      }
      await Bun.sleep(100);
    } finally {
      await sql.close();
    }
  }
  const urlOf = (database: string) => `postgres://assay@127.0.0.1:${port}/${database}`;
  return {
    url: urlOf("assay"),
    async createDatabase(name) {
      if (!/^\w+$/.test(name)) throw new Error(`not a database name: ${name}`);
      const sql = new SQL(url, { max: 1 });
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await sql.close();
      }
      return urlOf(name);
    },
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing is waited for.
      server.kill("SIGINT");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
