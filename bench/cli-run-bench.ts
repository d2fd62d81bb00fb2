/**
 * The overhead of `assay run` over the bare API call for the same job: the job bench's job (web-essentials on the
 * landing page at every capture size), each round once as one POST /api/jobs (fetch, timed to the last byte) and
 * once as `assay run request.json --format json` in a fresh process (timed from spawn to exit: start-up, the call,
 * the decision and the report). Rounds alternate so both see the same warm pool. Also `assay --version` alone
 * (start-up). The client is the one people install: the client package's build, run by Node
 * (packages/cli/dist/assay.mjs). Part of `npm run bench`; `bun bench/cli-run-bench.ts` runs it alone.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { JOB_BODY, startBenchApp, type BenchApp } from "./bench-app";
import { fmtMs, fmtRatio, nowMs, printTable, removeTempDirs, summary, tempDir, type Row } from "./support";

const client = join(import.meta.dir, "..", "packages", "cli", "dist", "assay.mjs");

async function timedCli(args: string[], env: Record<string, string>): Promise<number> {
  const started = nowMs();
  const proc = Bun.spawn(["node", client, ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const ms = nowMs() - started;
  if (code > 1) throw new Error(`assay ${args.join(" ")} exited ${code}: ${out.slice(0, 300)}`);
  return ms;
}

export interface CliBenchResult {
  rounds: number;
  bare: number;
  cli: number;
  version: number;
}

export async function benchCli(
  app: BenchApp,
  rounds = Math.max(1, Number(process.env.BENCH_CLI_ROUNDS) || 7),
): Promise<CliBenchResult> {
  const apiKey = await app.newApiKey();
  const dir = tempDir("cli");
  const request = join(dir, "request.json");
  writeFileSync(request, JSON.stringify(JOB_BODY));
  const env = { ASSAY_API_KEY: apiKey, ASSAY_BASE_URL: app.baseUrl, XDG_CONFIG_HOME: join(dir, "config") };
  await app.runJob(apiKey); // one warm-up job
  const bare: number[] = [];
  const cli: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push((await app.runJob(apiKey)).ms);
    cli.push(await timedCli(["run", request, "--format", "json"], env));
    version.push(await timedCli(["--version"], env));
  }
  return { rounds, bare: summary(bare).p50, cli: summary(cli).p50, version: summary(version).p50 };
}

export function cliRows(r: CliBenchResult): Row[] {
  return [
    {
      name: `assay run request.json --format json, p50 (n=${r.rounds})`,
      value: fmtMs(r.cli),
      baseline: `${fmtMs(r.bare)} bare POST /api/jobs`,
      ratio: `${fmtRatio(r.cli / r.bare)} (${r.cli >= r.bare ? "+" : "-"}${fmtMs(Math.abs(r.cli - r.bare))})`,
      target: "-",
    },
    {
      name: `assay --version (node packages/cli/dist/assay.mjs), p50 (n=${r.rounds})`,
      value: fmtMs(r.version),
      baseline: "-",
      ratio: "-",
      target: "-",
    },
  ];
}

if (import.meta.main) {
  const app = await startBenchApp(1);
  try {
    printTable(cliRows(await benchCli(app)));
  } finally {
    await app.close();
    removeTempDirs();
  }
}
