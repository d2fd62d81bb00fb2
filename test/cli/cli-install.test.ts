import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import pkg from "../../packages/cli/package.json" with { type: "json" };
import { runClient, startServer, type TestServer } from "../support/harness";

/**
 * `assay install` and `assay update` as a subprocess, each in a temporary home (HOME and XDG_CONFIG_HOME) and a
 * temporary project folder: for every MCP client at every scope it has, the file its documentation names, parsed
 * in its format, holding an entry that launches `assay mcp`; a second run changes nothing; --dry-run writes
 * nothing; no file ever holds a key, though one is stored and another is in the environment.
 */

setDefaultTimeout(60_000);

let server: TestServer;
const roots: string[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A stored key and one in the environment: neither may reach any file install writes. */
const STORED_KEY = "assay_sk_storedSecretThatMustNeverBeWrittenAnywhere0000000";
const ENV_KEY = "assay_sk_environmentSecretThatMustNeverBeWritten00000000000";
const HOSTS = ".config/assay/hosts.json";

/** A project folder and a home folder, each with what the test puts there (null: a folder), and a stored key. */
function folders(project: Record<string, string | null> = {}, home: Record<string, string | null> = {}) {
  const root = mkdtempSync(join(tmpdir(), "assay-install-"));
  roots.push(root);
  const make = (base: string, files: Record<string, string | null>) => {
    mkdirSync(base, { recursive: true });
    for (const [path, content] of Object.entries(files)) {
      if (content === null) mkdirSync(join(base, path), { recursive: true });
      else {
        mkdirSync(join(base, path, ".."), { recursive: true });
        writeFileSync(join(base, path), content);
      }
    }
  };
  const dir = { project: join(root, "project"), home: join(root, "home") };
  make(dir.project, project);
  make(dir.home, home);
  // The key `assay login` stored, where the client keeps it (XDG_CONFIG_HOME is the home's .config).
  mkdirSync(join(dir.home, HOSTS, ".."), { recursive: true });
  writeFileSync(
    join(dir.home, HOSTS),
    JSON.stringify({
      [server.baseUrl]: { apiKey: STORED_KEY, keyId: "key_stored", savedAt: new Date().toISOString() },
    }),
  );
  return {
    ...dir,
    env: {
      HOME: dir.home,
      XDG_CONFIG_HOME: join(dir.home, ".config"),
      ASSAY_BASE_URL: server.baseUrl,
      ASSAY_API_KEY: ENV_KEY,
      CODEX_HOME: "",
    },
  };
}

/** Every file under a folder, by path, with its content (the client's own stored keys left out). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else if (`${prefix}${name}` !== HOSTS) out[`${prefix}${name}`] = readFileSync(full, "utf8");
    }
  };
  walk(dir, "");
  return out;
}
const read = (...parts: string[]) => readFileSync(join(...parts), "utf8");

type Entry = "plain" | "typed";
/**
 * Each client at each scope it has: the file its documentation names (Linux paths; ~ is HOME, and
 * XDG_CONFIG_HOME is ~/.config), the key its servers are under, and the entry's shape (docs/cli.md has the sources).
 */
const MATRIX: Array<{ client: string; scope: "user" | "project"; file: string; under?: string; entry?: Entry }> = [
  { client: "claude-code", scope: "project", file: ".mcp.json", under: "mcpServers", entry: "typed" },
  { client: "claude-code", scope: "user", file: "~/.claude.json", under: "mcpServers", entry: "typed" },
  {
    client: "claude-desktop",
    scope: "user",
    file: "~/.config/Claude/claude_desktop_config.json",
    under: "mcpServers",
    entry: "plain",
  },
  { client: "cursor", scope: "project", file: ".cursor/mcp.json", under: "mcpServers", entry: "plain" },
  { client: "cursor", scope: "user", file: "~/.cursor/mcp.json", under: "mcpServers", entry: "plain" },
  { client: "vscode", scope: "project", file: ".vscode/mcp.json", under: "servers", entry: "typed" },
  { client: "vscode", scope: "user", file: "~/.config/Code/User/mcp.json", under: "servers", entry: "typed" },
  {
    client: "windsurf",
    scope: "user",
    file: "~/.codeium/windsurf/mcp_config.json",
    under: "mcpServers",
    entry: "plain",
  },
  { client: "zed", scope: "project", file: ".zed/settings.json", under: "context_servers", entry: "plain" },
  { client: "zed", scope: "user", file: "~/.config/zed/settings.json", under: "context_servers", entry: "plain" },
  { client: "gemini", scope: "project", file: ".gemini/settings.json", under: "mcpServers", entry: "plain" },
  { client: "gemini", scope: "user", file: "~/.gemini/settings.json", under: "mcpServers", entry: "plain" },
  { client: "codex", scope: "project", file: ".codex/config.toml" },
  { client: "codex", scope: "user", file: "~/.codex/config.toml" },
];

const launch = (baseUrl: string) => ({ command: "assay", args: ["mcp", "--base-url", baseUrl] });
const pathIn = (f: { project: string; home: string }, file: string) =>
  file.startsWith("~/") ? join(f.home, file.slice(2)) : join(f.project, file);

describe("each client at each scope", () => {
  for (const row of MATRIX) {
    test(`${row.client} --scope ${row.scope}: ${row.file}`, async () => {
      const f = folders();
      const args = ["install", "--client", row.client, "--scope", row.scope];

      // --dry-run first: it shows the entry and writes nothing.
      const before = { project: snapshot(f.project), home: snapshot(f.home) };
      const dry = await runClient([...args, "--dry-run"], f.env, f.project);
      expect([dry.code, dry.stderr]).toEqual([0, ""]);
      expect(dry.stdout).toContain(`would create  ${row.file} (`);
      expect(dry.stdout).toContain(`+++ ${row.file}`);
      expect(dry.stdout).toContain(server.baseUrl);
      expect(dry.stdout).toContain("Dry run: nothing was written.");
      expect({ project: snapshot(f.project), home: snapshot(f.home) }).toEqual(before);

      const first = await runClient(args, f.env, f.project);
      expect([first.code, first.stderr]).toEqual([0, ""]);
      expect(first.stdout).toContain(`created  ${row.file} (`);
      const text = read(pathIn(f, row.file));
      if (row.under) {
        const expected = launch(server.baseUrl);
        expect(JSON.parse(text)).toEqual({
          [row.under]: { assay: row.entry === "typed" ? { type: "stdio", ...expected } : expected },
        });
      } else {
        expect(Bun.TOML.parse(text)).toEqual({ mcp_servers: { assay: launch(server.baseUrl) } });
      }
      // The project's agents get AGENTS.md; a user's settings do not touch the project.
      expect(Object.keys(snapshot(f.project)).includes("AGENTS.md")).toBe(row.scope === "project");

      // A second run changes nothing.
      const written = { project: snapshot(f.project), home: snapshot(f.home) };
      const again = await runClient(args, f.env, f.project);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`unchanged  ${row.file} (`);
      expect(again.stdout).toContain("Everything was already in place.");
      expect({ project: snapshot(f.project), home: snapshot(f.home) }).toEqual(written);

      // No key anywhere: neither the stored one nor the one in the environment.
      const everything = JSON.stringify(written);
      expect(everything).not.toContain(STORED_KEY);
      expect(everything).not.toContain(ENV_KEY);
      expect(everything).not.toContain("assay_sk_");
    });
  }

  test("a client with no project scope says where its one file is (exit 2); an unknown client name lists them", async () => {
    const f = folders();
    for (const [client, file] of [
      ["claude-desktop", "~/.config/Claude/claude_desktop_config.json"],
      ["windsurf", "~/.codeium/windsurf/mcp_config.json"],
    ] as const) {
      const refused = await runClient(["install", "--client", client, "--scope", "project"], f.env, f.project);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`has no project scope: its MCP servers are in ${file} (--scope user)`);
    }
    const unknown = await runClient(["install", "--client", "cursr"], f.env, f.project);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "--client cursr: not a client assay install knows; one of claude-code, claude-desktop, cursor, vscode, windsurf, zed, gemini, codex",
    );
    expect(snapshot(f.project)).toEqual({});
  });
});

describe("found by what exists", () => {
  test("every client found, at the scope it was found at; other settings, servers and comments kept", async () => {
    const f = folders(
      {
        ".mcp.json": JSON.stringify({ mcpServers: { other: { command: "other-server" } }, note: "kept" }),
        ".cursor": null,
        ".gemini/settings.json": '{ "theme": "dark" }\n',
        "AGENTS.md": "# Our rules\n\nUse tabs.\n",
      },
      {
        ".codex/config.toml": 'model = "o4"\n\n[mcp_servers.other]\ncommand = "other"\n',
        ".config/zed/settings.json": '// Zed settings\n{\n  "theme": "One Dark", // my theme\n  "vim_mode": true,\n}\n',
        ".codeium/windsurf": null,
      },
    );
    const first = await runClient(["install"], f.env, f.project);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    for (const line of [
      "updated  .mcp.json (Claude Code, project)",
      "created  .cursor/mcp.json (Cursor, project)",
      "updated  .gemini/settings.json (Gemini CLI, project)",
      "updated  ~/.codex/config.toml (Codex, user)",
      "updated  ~/.config/zed/settings.json (Zed, user)",
      "created  ~/.codeium/windsurf/mcp_config.json (Windsurf, user)",
      "updated  AGENTS.md (agent instructions)",
    ])
      expect(first.stdout).toContain(line);
    // Nothing else was found: no VS Code, Claude Desktop.
    expect(first.stdout).not.toContain("VS Code");
    expect(first.stdout).not.toContain("Claude Desktop");

    const entry = launch(server.baseUrl);
    expect(JSON.parse(read(f.project, ".mcp.json"))).toEqual({
      mcpServers: { other: { command: "other-server" }, assay: { type: "stdio", ...entry } },
      note: "kept",
    });
    expect(JSON.parse(read(f.project, ".gemini", "settings.json"))).toEqual({
      theme: "dark",
      mcpServers: { assay: entry },
    });
    const codex = read(f.home, ".codex", "config.toml");
    expect(codex).toStartWith('model = "o4"\n\n[mcp_servers.other]\ncommand = "other"\n\n# BEGIN assay');
    expect(Bun.TOML.parse(codex)).toEqual({ model: "o4", mcp_servers: { other: { command: "other" }, assay: entry } });
    // Zed's settings are JSON with comments: they stay, and so does every other setting.
    const zed = read(f.home, ".config", "zed", "settings.json");
    expect(zed).toStartWith("// Zed settings\n");
    expect(zed).toContain("// my theme");
    expect(parseJsonc(zed, [], { allowTrailingComma: true })).toEqual({
      theme: "One Dark",
      vim_mode: true,
      context_servers: { assay: entry },
    });
    const agents = read(f.project, "AGENTS.md");
    expect(agents).toStartWith("# Our rules\n\nUse tabs.\n\n<!-- BEGIN assay");
    expect(agents).toEndWith("<!-- END assay -->\n");
    for (const tool of ["run_job", "get_job", "await_email_job", "estimate_job", "check_job_request", "explain_error"])
      expect(agents).toContain(`\`${tool}\``);
    expect(agents).toContain(`assay mcp --base-url ${server.baseUrl}`);

    const before = { project: snapshot(f.project), home: snapshot(f.home) };
    const second = await runClient(["install"], f.env, f.project);
    expect(second.stdout.match(/^unchanged {2}/gm)).toHaveLength(7);
    expect({ project: snapshot(f.project), home: snapshot(f.home) }).toEqual(before);

    // --scope user: only the clients found in the home folder.
    const users = await runClient(["install", "--scope", "user", "--dry-run"], f.env, f.project);
    expect(users.stdout).toContain("~/.codex/config.toml (Codex, user)");
    expect(users.stdout).not.toContain("Cursor");
    expect(users.stdout).not.toContain("AGENTS.md");
    expect({ project: snapshot(f.project), home: snapshot(f.home) }).toEqual(before);
  });

  test("nothing found exits 1 naming what it looked for; a file that is not JSON is left alone (exit 2)", async () => {
    const empty = folders();
    const nothing = await runClient(["install"], empty.env, empty.project);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain(
      `No MCP client found in ${empty.project} or ${empty.home}. Looked for: Claude Code (`,
    );
    for (const marker of [".mcp.json", "~/.claude.json", "~/.config/Claude", ".vscode", "~/.codeium/windsurf", ".zed"])
      expect(nothing.stderr).toContain(marker);
    expect(nothing.stderr).toContain("Name one with --client (claude-code, claude-desktop, cursor");
    expect(snapshot(empty.project)).toEqual({});
    const noUpdate = await runClient(["update"], empty.env, empty.project);
    expect(noUpdate.code).toBe(1);
    expect(noUpdate.stderr).toContain("run assay install first");

    const broken = folders({ ".mcp.json": "{ not json" });
    const refused = await runClient(["install"], broken.env, broken.project);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(".mcp.json is not valid JSON");
    expect(read(broken.project, ".mcp.json")).toBe("{ not json");
  });
});

/** The AGENTS.md section an older install wrote. */
const OLD_SECTION =
  "<!-- BEGIN assay (written by `assay install`; `assay update` refreshes it) -->\nAssay at http://old.example:8080\n<!-- END assay -->";

describe("update", () => {
  test("rewrites only Assay's entries for the server given now, an older install's HTTP entries too; compares versions", async () => {
    const oldHttp = {
      type: "http",
      url: "http://old.example:8080/mcp",
      headers: { Authorization: "Bearer ${ASSAY_API_KEY}" },
    };
    const f = folders(
      {
        ".mcp.json": JSON.stringify({ mcpServers: { assay: oldHttp, other: { command: "x" } } }),
        "AGENTS.md": `keep me\n\n${OLD_SECTION}\n`,
      },
      {
        ".codex/config.toml":
          '# BEGIN assay (written by `assay install`; `assay update` refreshes it)\n[mcp_servers.assay]\nurl = "http://old.example:8080/mcp"\nbearer_token_env_var = "ASSAY_API_KEY"\n# END assay\n',
      },
    );
    expect(
      (await runClient(["install", "--client", "cursor", "--base-url", "http://old.example:8080"], f.env, f.project))
        .code,
    ).toBe(0);

    const dry = await runClient(["update", "--dry-run"], f.env, f.project);
    expect(dry.code).toBe(0);
    // A client named and found nowhere is set up at user scope.
    expect(dry.stdout).toContain("would update  ~/.cursor/mcp.json (Cursor, user)");
    expect(dry.stdout).toContain(`-        "http://old.example:8080"`);
    expect(dry.stdout).toContain(`+        "${server.baseUrl}"`);
    expect(dry.stdout).toContain("Dry run: nothing was written.");
    expect(JSON.parse(read(f.home, ".cursor", "mcp.json")).mcpServers.assay.args).toContain("http://old.example:8080");

    const updated = await runClient(["update"], f.env, f.project);
    expect([updated.code, updated.stderr]).toEqual([0, ""]);
    for (const line of [
      "updated  .mcp.json (Claude Code, project)",
      "updated  ~/.cursor/mcp.json (Cursor, user)",
      "updated  ~/.codex/config.toml (Codex, user)",
      "updated  AGENTS.md (agent instructions)",
    ])
      expect(updated.stdout).toContain(line);
    const entry = launch(server.baseUrl);
    expect(JSON.parse(read(f.project, ".mcp.json")).mcpServers).toEqual({
      assay: { type: "stdio", ...entry },
      other: { command: "x" },
    });
    expect(JSON.parse(read(f.home, ".cursor", "mcp.json")).mcpServers.assay).toEqual(entry);
    expect(Bun.TOML.parse(read(f.home, ".codex", "config.toml"))).toEqual({ mcp_servers: { assay: entry } });
    const agents = read(f.project, "AGENTS.md");
    expect(agents).toStartWith("keep me\n\n<!-- BEGIN assay");
    expect(agents).not.toContain("old.example");
    expect(agents.match(/BEGIN assay/g)).toHaveLength(1);
    const version = (await server.api("GET", "/api/openapi.json")).body.info.version;
    expect(updated.stdout).toContain(`Client version ${pkg.version}, server ${server.baseUrl} version ${version}`);

    const unreachable = await runClient(["update", "--dry-run", "--base-url", "http://127.0.0.1:9"], f.env, f.project);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("UNREACHABLE: Could not reach http://127.0.0.1:9");
  });
});
