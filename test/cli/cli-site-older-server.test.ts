import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clientEnv, runClient, spawnServer, type ServerProcess } from "../support/harness";
import { hasCommit, olderServerTree } from "../support/older-server";

/**
 * `assay site` against a server older than runs: the real Assay server as it was at the last commit before the runs
 * routes came (a48b627: POST /api/runs and PATCH /api/projects/{project} answer 404 ROUTE_NOT_FOUND there), run from
 * the repository's history. The client says the server does not support runs yet (RUNS_NOT_SUPPORTED, exit 2,
 * undecided in the GitHub outputs), and the older server charged nothing.
 */
setDefaultTimeout(120_000);

/** The parent of the commit that added the runs operations (src/operations/runs). */
const BEFORE_RUNS = "a48b627546f66fdf626299b725153507f81fed06";

const HISTORY = hasCommit(BEFORE_RUNS);
if (!HISTORY) console.warn(`skipped: this clone does not hold ${BEFORE_RUNS} (a shallow clone); git fetch --unshallow`);

let tree: ReturnType<typeof olderServerTree>;
let server: ServerProcess;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (!HISTORY) return;
  tree = olderServerTree(BEFORE_RUNS);
  work = mkdtempSync(join(tmpdir(), "assay-cli-site-older-"));
  server = await spawnServer(join(work, "data"), {}, tree.root);
  mkdirSync(join(work, "dist"), { recursive: true });
  writeFileSync(join(work, "dist", "index.html"), "<!doctype html><title>Home</title><h1>Home</h1>");
  env = clientEnv(server.baseUrl, (await server.signup()).apiKey, work);
});
afterAll(async () => {
  await server?.kill("SIGTERM");
  tree?.remove();
  rmSync(work, { recursive: true, force: true });
});

const balance = async () => (await server.api("GET", "/api/credits", { key: env.ASSAY_API_KEY })).body.balance;

describe.skipIf(!HISTORY)("assay site: a server older than runs", () => {
  test("POST /api/runs answers 404 ROUTE_NOT_FOUND: RUNS_NOT_SUPPORTED, exit 2, undecided, nothing charged", async () => {
    const before = await balance();
    const output = join(work, "github-output");
    writeFileSync(output, "");
    const r = await runClient(
      ["site", "--project", "docs", "--dist", "dist", "--page-url", "https://docs.example/", "--set", "seo"],
      { ...env, GITHUB_OUTPUT: output },
      work,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "assay: RUNS_NOT_SUPPORTED: This server does not support runs yet (POST /api/runs answered 404 ROUTE_NOT_FOUND): upgrade it, or check pages one at a time with `assay run`.",
    );
    expect(readFileSync(output, "utf8")).toBe("verdict=undecided\nerror=RUNS_NOT_SUPPORTED\n");
    expect(await balance()).toBe(before);
    expect((await server.api("GET", "/api/jobs", { key: env.ASSAY_API_KEY })).body.jobs).toEqual([]);
  });

  test("a config naming a base branch: PATCH /api/projects/{project} is the first route missing, and said so", async () => {
    writeFileSync(
      join(work, "assay.config.json"),
      JSON.stringify({ project: "docs", baseBranch: "trunk", dist: { dir: "dist", pageUrl: "https://docs.example/" } }),
    );
    const r = await runClient(["site", "--set", "seo"], env, work);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "assay: RUNS_NOT_SUPPORTED: This server does not support runs yet (PATCH /api/projects/docs answered 404 ROUTE_NOT_FOUND)",
    );
  });
});
