import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import rootPkg from "../../package.json" with { type: "json" };
import pkg from "../../packages/cli/package.json" with { type: "json" };
import { installPackedClient, type InstalledClient } from "../support/client-package";
import { ROOT, startServer, type TestServer } from "../support/harness";

/**
 * The client package (packages/cli, `assay-cli`): type-checked as Node runs it, its committed build equal to a
 * fresh one, packed by npm with nothing to download, installed by npm into an empty folder offline, and run by
 * the machine's Node (no Bun on its PATH) against a real server: login --with-token, status, a url job and an
 * html job, print-key, logout.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 180_000;
const CLI = join(ROOT, "packages", "cli");

test("the client type-checks with Node's types alone (no Bun, no DOM), shared modules included", () => {
  const tsc = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", CLI], { stdout: "pipe", stderr: "pipe" });
  expect([tsc.exitCode, tsc.stdout.toString() + tsc.stderr.toString()]).toEqual([0, ""]);
});

test("the committed dist/assay.mjs is what the build script makes from the sources (npm run build:cli)", () => {
  const out = mkdtempSync(join(tmpdir(), "assay-client-build-"));
  try {
    // The package's own build script, with the output moved aside.
    const script = pkg.scripts.build.replace("--outfile=dist/assay.mjs", `--outfile=${join(out, "assay.mjs")}`);
    expect(script).not.toBe(pkg.scripts.build);
    const build = Bun.spawnSync(["sh", "-c", script], {
      cwd: CLI,
      env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}` },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(build.exitCode).toBe(0);
    const fresh = readFileSync(join(out, "assay.mjs"));
    const committed = readFileSync(join(CLI, "dist", "assay.mjs"));
    if (!fresh.equals(committed))
      throw new Error("packages/cli/dist/assay.mjs is stale: run `npm run build:cli` and commit it");
    expect(fresh.subarray(0, 20).toString()).toBe("#!/usr/bin/env node\n");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the package: the server's version, a bin, Node ≥ 18, nothing to install but itself", () => {
  expect(pkg.version).toBe(rootPkg.version);
  expect(pkg.bin).toEqual({ assay: "dist/assay.mjs" });
  expect(pkg.engines.node).toBe(">=18");
  expect("dependencies" in pkg).toBe(false);
  expect((rootPkg as { workspaces?: string[] }).workspaces).toContain("packages/cli");
});

describe("packed, installed by npm into an empty folder offline, run by Node", () => {
  let client: InstalledClient;
  let server: TestServer;
  let target: ReturnType<typeof Bun.serve>;
  let home: string;

  beforeAll(async () => {
    client = installPackedClient();
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
    target = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><title>Spring sale</title></head><body><h1>Spring sale</h1></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
    home = mkdtempSync(join(tmpdir(), "assay-client-home-"));
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    target?.stop(true);
    await server?.stop();
    client?.remove();
    if (home) rmSync(home, { recursive: true, force: true });
  }, HOOK_TIMEOUT);

  /** The installed `assay`, as a person's shell runs it: its own PATH, HOME and config folder, no key in the environment. */
  async function assay(args: string[], stdin?: string) {
    const proc = Bun.spawn([client.bin, ...args], {
      cwd: home,
      env: { PATH: client.path, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ASSAY_BASE_URL: server.baseUrl },
      stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { code, stdout, stderr };
  }

  test("the tarball holds the bundle, its package.json and README, and no dependency", () => {
    const list = Bun.spawnSync(["tar", "tzf", client.tarball], { stdout: "pipe" }).stdout.toString().trim().split("\n");
    expect(list.sort()).toEqual(["package/README.md", "package/dist/assay.mjs", "package/package.json"]);
    const installed = JSON.parse(readFileSync(join(client.dir, "node_modules", "assay-cli", "package.json"), "utf8"));
    expect(installed.dependencies).toBeUndefined();
    // npm installed this package alone.
    const lock = JSON.parse(readFileSync(join(client.dir, "package-lock.json"), "utf8"));
    expect(Object.keys(lock.packages).filter((p) => p !== "")).toEqual(["node_modules/assay-cli"]);
    expect(statSync(client.tarball).size).toBeLessThan(1024 * 1024);
  });

  test("it runs under Node: --version, and the bin is the bundle with Node's shebang", async () => {
    const version = await assay(["--version"]);
    expect(version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    expect(readFileSync(client.bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(Bun.spawnSync(["sh", "-c", "command -v bun"], { env: { PATH: client.path } }).exitCode).not.toBe(0);
  });

  test("login --with-token, status, a url job and an html job, print-key, logout", async () => {
    const account = await server.signup();
    const login = await assay(["login", "--with-token"], `${account.apiKey}\n`);
    expect([login.code, login.stderr]).toEqual([0, ""]);
    expect(login.stdout).toContain(`Logged in to ${server.baseUrl} with the key ${account.apiKey.slice(0, 13)}…`);

    const status = await assay(["status"]);
    expect([status.code, status.stderr]).toEqual([0, ""]);
    expect(status.stdout).toContain(`Organization: ${account.orgCode} (${account.customerId})`);
    expect(status.stdout).toMatch(/Balance: \d+ credits/);

    const url = await assay([
      "run",
      "--url",
      `http://127.0.0.1:${target.port}/`,
      "--validation",
      "page-title",
      "--validation",
      "html-lang",
    ]);
    expect([url.code, url.stderr]).toEqual([0, ""]);
    expect(url.stdout).toContain("PASS  page-title [major]");
    expect(url.stdout).toContain("verdict: PASS");

    writeFileSync(join(home, "page.html"), "<html><head></head><body><h1>One</h1><h1>Two</h1></body></html>\n");
    const html = await assay([
      "run",
      "--html",
      "page.html",
      "--page-url",
      "https://shop.example/",
      "--format",
      "junit",
    ]);
    expect(html.code).toBe(1);
    expect(html.stderr).toContain("checking the web-essentials set");
    expect(html.stdout).toContain('<testcase classname="assay.static_html" name="page-title"');
    expect(html.stdout).toContain("<failure");

    const printed = await assay(["print-key"]);
    expect(printed).toEqual({ code: 0, stdout: `${account.apiKey}\n`, stderr: "" });

    const logout = await assay(["logout"]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain(`Removed the key ${account.apiKey.slice(0, 13)}… for ${server.baseUrl}`);
    const after = await assay(["print-key"]);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain(`NO_KEY: No key for ${server.baseUrl}`);
  });
});
