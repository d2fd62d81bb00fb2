/**
 * `bun bench/cli-run-bench.ts`: the overhead of `assay run` over the bare API call for the same job. The job is
 * the job bench's (web-essentials on the landing page at every capture size); each round runs it once as one
 * POST /api/jobs (fetch, timed to the last byte) and once as `assay run request.json --format json` in a fresh
 * process (timed from spawn to exit: start-up, the call, the decision and the report). Rounds alternate so
 * both see the same warm pool. Also `assay --version` alone (start-up of `bun src/main.ts`). Medians, no target.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { JOB_BODY, startBenchApp } from "./bench-app";
import { fmtMs, nowMs, printTable, removeTempDirs, summary, tempDir } from "./support";

const ROUNDS = Math.max(1, Number(process.env.BENCH_CLI_ROUNDS) || 7);
const main = join(import.meta.dir, "..", "src", "main.ts");

async function timedCli(args: string[], env: Record<string, string>): Promise<number> {
  const started = nowMs();
  const proc = Bun.spawn([process.execPath, main, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const ms = nowMs() - started;
  if (code > 1) throw new Error(`assay ${args.join(" ")} exited ${code}: ${out.slice(0, 300)}`);
  return ms;
}

const app = await startBenchApp(1);
try {
  const apiKey = await app.newApiKey();
  const dir = tempDir("cli");
  const request = join(dir, "request.json");
  writeFileSync(request, JSON.stringify(JOB_BODY));
  const env = { ASSAY_API_KEY: apiKey, ASSAY_BASE_URL: app.baseUrl, XDG_CONFIG_HOME: join(dir, "config") };
  await app.runJob(apiKey); // one warm-up job
  const bare: number[] = [];
  const cli: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push((await app.runJob(apiKey)).ms);
    cli.push(await timedCli(["run", request, "--format", "json"], env));
    version.push(await timedCli(["--version"], env));
  }
  const b = summary(bare).p50;
  const c = summary(cli).p50;
  printTable([
    { name: `POST /api/jobs, bare fetch (${ROUNDS} runs)`, value: fmtMs(b), baseline: "", ratio: "", target: "" },
    { name: `assay run request.json --format json (${ROUNDS} runs)`, value: fmtMs(c), baseline: fmtMs(b), ratio: `+${fmtMs(c - b)}`, target: "" },
    { name: `assay --version (bun src/main.ts, ${ROUNDS} runs)`, value: fmtMs(summary(version).p50), baseline: "", ratio: "", target: "" },
  ]);
} finally {
  await app.close();
  removeTempDirs();
}
