import { type Command, Option } from "commander";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { createTwoFilesPatch } from "diff";
// The ES module build: the package's main is a UMD build whose require()s of its own parts no bundler follows.
import {
  applyEdits,
  modify,
  parse as parseJsonc,
  printParseErrorCode,
  type ParseError,
} from "jsonc-parser/lib/esm/main.js";
import { parse as parseToml } from "smol-toml";
import pkg from "../../package.json" with { type: "json" };
import { action, EXIT, UsageError } from "../../../../src/cli/program";
import { baseUrlOf, callApi } from "../client";
import { storedKey } from "../hosts";
import { BASE_URL_OPTION, reporting } from "./auth";

/**
 * `assay install` and `assay update`: Assay's MCP server registered for the coding agents people use, each in its
 * own configuration file at user or project scope, and an instructions section in AGENTS.md. Every entry launches
 * `assay mcp --base-url URL` over stdio, which reads the key `assay login` stored (or ASSAY_API_KEY) when it
 * starts: no file holds a secret. Each client's file and format is the one its documentation gives (docs/cli.md
 * lists the sources).
 */

const SERVER_NAME = "assay";
const BEGIN = "<!-- BEGIN assay (written by `assay install`; `assay update` refreshes it) -->";
const END = "<!-- END assay -->";
const TOML_BEGIN = "# BEGIN assay (written by `assay install`; `assay update` refreshes it)";
const TOML_END = "# END assay";

type Scope = "user" | "project";
const SCOPES: readonly Scope[] = ["user", "project"];

/** Where install looks: the project (the current folder) and the user's folders, by platform. */
interface Places {
  project: string;
  home: string;
  /** The per-user application settings folder: %APPDATA% on Windows, ~/Library/Application Support on macOS, else $XDG_CONFIG_HOME or ~/.config. */
  appConfig: string;
  /** The folder of the user's settings that follow the XDG layout on Linux and macOS (Zed's). */
  xdgConfig: string;
  codexHome: string;
}

function places(): Places {
  const home = process.env.HOME || homedir();
  const xdgConfig = process.env.XDG_CONFIG_HOME || join(home, ".config");
  const appConfig =
    process.platform === "win32"
      ? process.env.APPDATA || join(home, "AppData", "Roaming")
      : process.platform === "darwin"
        ? join(home, "Library", "Application Support")
        : xdgConfig;
  return {
    project: process.cwd(),
    home,
    appConfig,
    xdgConfig: process.platform === "win32" ? appConfig : xdgConfig,
    codexHome: process.env.CODEX_HOME || join(home, ".codex"),
  };
}

/** The command an entry launches: the client itself, speaking MCP over stdio to this server. */
interface Launch {
  command: string;
  args: string[];
}

/** How a client's file holds its servers: a JSON object under a key path, or Codex's TOML tables. */
type FileFormat =
  | { kind: "json"; under: string[]; entry: (launch: Launch) => Record<string, unknown> }
  | { kind: "toml" };

/** One MCP client: its files per scope, what shows it is used, and the entry it reads. */
interface Client {
  name: string;
  label: string;
  files: Partial<Record<Scope, (p: Places) => string>>;
  markers: Partial<Record<Scope, (p: Places) => string[]>>;
  format: FileFormat;
}

const plain = (launch: Launch) => ({ command: launch.command, args: launch.args });
const typed = (launch: Launch) => ({ type: "stdio", command: launch.command, args: launch.args });

export const CLIENTS: readonly Client[] = [
  {
    name: "claude-code",
    label: "Claude Code",
    files: { project: (p) => join(p.project, ".mcp.json"), user: (p) => join(p.home, ".claude.json") },
    markers: {
      project: (p) => [join(p.project, ".mcp.json"), join(p.project, ".claude"), join(p.project, "CLAUDE.md")],
      user: (p) => [join(p.home, ".claude"), join(p.home, ".claude.json")],
    },
    format: { kind: "json", under: ["mcpServers"], entry: typed },
  },
  {
    name: "claude-desktop",
    label: "Claude Desktop",
    files: { user: (p) => join(p.appConfig, "Claude", "claude_desktop_config.json") },
    markers: { user: (p) => [join(p.appConfig, "Claude")] },
    format: { kind: "json", under: ["mcpServers"], entry: plain },
  },
  {
    name: "cursor",
    label: "Cursor",
    files: { project: (p) => join(p.project, ".cursor", "mcp.json"), user: (p) => join(p.home, ".cursor", "mcp.json") },
    markers: { project: (p) => [join(p.project, ".cursor")], user: (p) => [join(p.home, ".cursor")] },
    format: { kind: "json", under: ["mcpServers"], entry: plain },
  },
  {
    name: "vscode",
    label: "VS Code (Copilot)",
    files: {
      project: (p) => join(p.project, ".vscode", "mcp.json"),
      user: (p) => join(p.appConfig, "Code", "User", "mcp.json"),
    },
    markers: { project: (p) => [join(p.project, ".vscode")], user: (p) => [join(p.appConfig, "Code")] },
    format: { kind: "json", under: ["servers"], entry: typed },
  },
  {
    name: "windsurf",
    label: "Windsurf",
    files: { user: (p) => join(p.home, ".codeium", "windsurf", "mcp_config.json") },
    markers: { user: (p) => [join(p.home, ".codeium", "windsurf")] },
    format: { kind: "json", under: ["mcpServers"], entry: plain },
  },
  {
    name: "zed",
    label: "Zed",
    files: {
      project: (p) => join(p.project, ".zed", "settings.json"),
      user: (p) => join(p.xdgConfig, process.platform === "win32" ? "Zed" : "zed", "settings.json"),
    },
    markers: {
      project: (p) => [join(p.project, ".zed")],
      user: (p) => [join(p.xdgConfig, process.platform === "win32" ? "Zed" : "zed")],
    },
    format: { kind: "json", under: ["context_servers"], entry: plain },
  },
  {
    name: "gemini",
    label: "Gemini CLI",
    files: {
      project: (p) => join(p.project, ".gemini", "settings.json"),
      user: (p) => join(p.home, ".gemini", "settings.json"),
    },
    markers: {
      project: (p) => [join(p.project, ".gemini"), join(p.project, "GEMINI.md")],
      user: (p) => [join(p.home, ".gemini")],
    },
    format: { kind: "json", under: ["mcpServers"], entry: plain },
  },
  {
    name: "codex",
    label: "Codex",
    files: {
      project: (p) => join(p.project, ".codex", "config.toml"),
      user: (p) => join(p.codexHome, "config.toml"),
    },
    markers: { project: (p) => [join(p.project, ".codex")], user: (p) => [p.codexHome] },
    format: { kind: "toml" },
  },
];

/** A file as the person sees it: ~/… under the home folder, else relative to the project. */
function shown(file: string, p: Places): string {
  const fromProject = relative(p.project, file);
  if (!fromProject.startsWith("..")) return fromProject;
  const fromHome = relative(p.home, file);
  return fromHome.startsWith("..") ? file : `~/${fromHome}`;
}

/** A JSON (or JSONC: Zed's and VS Code's settings) file with Assay's entry under `under`, everything else as it was. */
function withJsonEntry(current: string | null, label: string, under: string[], entry: Record<string, unknown>): string {
  const text = current ?? "";
  const errors: ParseError[] = [];
  const doc = text.trim() ? parseJsonc(text, errors, { allowTrailingComma: true }) : {};
  if (errors.length)
    throw new UsageError(
      `${label} is not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}); fix it and run again`,
    );
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new UsageError(`${label} does not hold a JSON object`);
  const servers = under.reduce<any>((node, key) => node?.[key], doc);
  if (isDeepStrictEqual(servers?.[SERVER_NAME], entry)) return text;
  const base = text.trim() ? text : "{}\n";
  const edits = modify(base, [...under, SERVER_NAME], entry, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" },
  });
  const next = applyEdits(base, edits);
  return next.endsWith("\n") ? next : `${next}\n`;
}

function jsonHolds(current: string, under: string[]): boolean {
  const doc = parseJsonc(current, [], { allowTrailingComma: true });
  return Boolean(under.reduce<any>((node, key) => node?.[key], doc)?.[SERVER_NAME]);
}

/** Replaces the text between two marker lines (markers included), or appends the block. */
function withBlock(current: string | null, begin: string, end: string, block: string): string {
  const text = current ?? "";
  const from = text.indexOf(begin);
  const to = text.indexOf(end, from);
  if (from >= 0 && to > from) return text.slice(0, from) + block + text.slice(to + end.length);
  const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${sep}${block}\n`;
}

/** Codex's config.toml with Assay's table between marker lines, checked to parse and to say what was meant. */
function withTomlEntry(current: string | null, label: string, launch: Launch): string {
  const block = [
    TOML_BEGIN,
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((a) => JSON.stringify(a)).join(", ")}]`,
    TOML_END,
  ].join("\n");
  const next = withBlock(current, TOML_BEGIN, TOML_END, block);
  let parsed: any;
  try {
    parsed = parseToml(next);
  } catch (e) {
    throw new UsageError(
      `${label} would not be valid TOML with Assay's table (${(e as Error).message.split("\n")[0]}); is [mcp_servers.${SERVER_NAME}] already there?`,
    );
  }
  // As plain JSON: the parser's tables are objects of its own kind.
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed?.mcp_servers?.[SERVER_NAME] ?? null)), plain(launch)))
    throw new UsageError(`${label}: Assay's table did not come out as written`);
  return next;
}

/** The AGENTS.md section: what Assay is, how agents reach it, its MCP tools, the CLI, and where the full reference is. */
function agentInstructions(baseUrl: string): string {
  return [
    BEGIN,
    "## Assay (QA for webpages and emails)",
    "",
    `This project checks its pages and emails with Assay at ${baseUrl}. The MCP server \`${SERVER_NAME}\` is registered for`,
    `this project's agents: they launch \`assay mcp --base-url ${baseUrl}\`, which uses the key \`assay login\` stored (or ASSAY_API_KEY).`,
    "",
    "- Choose checks: `recommend_checks`, `search_validations`, `list_validation_sets`, `get_validation`.",
    "- Before running: `check_job_request` (validates a body, free) and `estimate_job` (its price in credits).",
    "- Run: `run_job` (a URL, HTML or an email), then `get_job` for the verdict and findings; for an email job, send",
    "  the message to the job's test address and call `await_email_job`.",
    "- When something is refused: `explain_error` with the code; the balance: `get_credits`.",
    "- From a shell or CI: `assay run --url URL` (exit 0 pass, 1 blocked, 2 undecided); `assay status` shows the key in use.",
    "",
    `The full reference for agents: ${baseUrl}/llms.txt; the HTTP API: ${baseUrl}/api/openapi.json.`,
    END,
  ].join("\n");
}

interface Change {
  what: string;
  path: string;
  file: string;
  before: string | null;
  after: string;
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);
const clientNamed = (name: string) => CLIENTS.find((c) => c.name === name);

/** The file of one client at one scope, with Assay's entry as it should be. */
function change(client: Client, scope: Scope, p: Places, launch: Launch): Change {
  const file = client.files[scope]!(p);
  const path = shown(file, p);
  const before = read(file);
  const after =
    client.format.kind === "json"
      ? withJsonEntry(before, path, client.format.under, client.format.entry(launch))
      : withTomlEntry(before, path, launch);
  return { what: `${client.label}, ${scope}`, path, file, before, after };
}

const detected = (client: Client, scope: Scope, p: Places) =>
  Boolean(client.files[scope] && client.markers[scope]?.(p).some((marker) => existsSync(marker)));

/** The scope for a client when none is asked for: where it was found (the project first), else the one it has. */
function defaultScope(client: Client, p: Places): Scope {
  if (detected(client, "project", p)) return "project";
  if (detected(client, "user", p) || client.files.user) return "user";
  return "project";
}

/** Which clients at which scopes: those named (--client), else those found; at --scope, else where each was found. */
function chosen(opts: InstallOptions, p: Places): Array<{ client: Client; scope: Scope }> {
  const scope = opts.scope;
  if (opts.client?.length) {
    return opts.client.map((name) => {
      const client = clientNamed(name)!;
      const at = scope ?? defaultScope(client, p);
      if (!client.files[at])
        throw new UsageError(
          `${client.label} has no ${at} scope: its MCP servers are in ${shown(client.files[at === "user" ? "project" : "user"]!(p), p)} (--scope ${at === "user" ? "project" : "user"})`,
        );
      return { client, scope: at };
    });
  }
  return CLIENTS.flatMap((client) => {
    if (scope) return detected(client, scope, p) ? [{ client, scope }] : [];
    const found = SCOPES.filter((s) => detected(client, s, p));
    return found.length
      ? [{ client, scope: found.includes("project") ? ("project" as const) : ("user" as const) }]
      : [];
  });
}

/** The AGENTS.md change, when an entry is written at project scope (the section is for the project's agents). */
function agentsFile(p: Places, baseUrl: string): Change {
  const file = join(p.project, "AGENTS.md");
  const before = read(file);
  return {
    what: "agent instructions",
    path: shown(file, p),
    file,
    before,
    after: withBlock(before, BEGIN, END, agentInstructions(baseUrl)),
  };
}

/** Shows each change (with --dry-run, as a unified diff) or writes it; a file already as it should be is left alone. */
function apply(changes: Change[], dryRun: boolean): number {
  let written = 0;
  for (const c of changes) {
    if (c.before === c.after) {
      console.log(`unchanged  ${c.path} (${c.what})`);
      continue;
    }
    const verb = c.before === null ? "create" : "update";
    if (dryRun) {
      console.log(`would ${verb}  ${c.path} (${c.what})`);
      const patch = createTwoFilesPatch(
        c.before === null ? "/dev/null" : c.path,
        c.path,
        c.before ?? "",
        c.after,
        undefined,
        undefined,
        { context: 3 },
      );
      // The patch without its "Index:" and "===" header lines: the file names follow.
      process.stdout.write(
        patch
          .split("\n")
          .filter((line) => !line.startsWith("Index: ") && !/^=+$/.test(line))
          .join("\n"),
      );
      continue;
    }
    mkdirSync(dirname(c.file), { recursive: true });
    writeFileSync(c.file, c.after);
    written++;
    console.log(`${verb}d  ${c.path} (${c.what})`);
  }
  return written;
}

const launchFor = (baseUrl: string): Launch => ({ command: "assay", args: ["mcp", "--base-url", baseUrl] });

/** What every install and update says last: how the agents get a key, and whether one is there yet. */
function keyNote(baseUrl: string): void {
  console.log(
    `The agents launch \`assay mcp --base-url ${baseUrl}\` (assay must be on their PATH), which uses the key assay login stored, or ASSAY_API_KEY: no file holds a key.`,
  );
  if (!storedKey(baseUrl) && !process.env.ASSAY_API_KEY)
    console.log(`No key is stored for ${baseUrl} yet: run assay login --base-url ${baseUrl}.`);
}

interface InstallOptions {
  baseUrl?: string;
  dryRun?: boolean;
  client?: string[];
  scope?: Scope;
}

function install(opts: InstallOptions): number {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const p = places();
  const targets = chosen(opts, p);
  if (targets.length === 0) {
    const lookedFor = CLIENTS.map(
      (c) =>
        `${c.label} (${SCOPES.filter((s) => !opts.scope || s === opts.scope)
          .flatMap((s) => c.markers[s]?.(p) ?? [])
          .map((m) => shown(m, p))
          .join(", ")})`,
    ).join("; ");
    console.error(
      `No MCP client found in ${p.project} or ${p.home}${opts.scope ? ` at ${opts.scope} scope` : ""}. Looked for: ${lookedFor}. Name one with --client (${CLIENTS.map((c) => c.name).join(", ")}).`,
    );
    return EXIT.blocked;
  }
  const launch = launchFor(baseUrl);
  const changes = targets.map(({ client, scope }) => change(client, scope, p, launch));
  if (targets.some((t) => t.scope === "project")) changes.push(agentsFile(p, baseUrl));
  const written = apply(changes, Boolean(opts.dryRun));
  if (opts.dryRun) console.log("Dry run: nothing was written.");
  else console.log(written ? `Assay's MCP server (${baseUrl}) is registered.` : "Everything was already in place.");
  keyNote(baseUrl);
  return EXIT.pass;
}

async function update(opts: { baseUrl?: string; dryRun?: boolean }): Promise<number> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const p = places();
  const launch = launchFor(baseUrl);
  const changes: Change[] = [];
  for (const client of CLIENTS)
    for (const scope of SCOPES) {
      const file = client.files[scope]?.(p);
      const current = file ? read(file) : null;
      if (current === null) continue;
      const holds =
        client.format.kind === "json" ? jsonHolds(current, client.format.under) : current.includes(TOML_BEGIN);
      if (holds) changes.push(change(client, scope, p, launch));
    }
  const agents = read(join(p.project, "AGENTS.md"));
  if (agents?.includes(BEGIN)) changes.push(agentsFile(p, baseUrl));
  if (changes.length === 0) {
    console.error(`Nothing written by assay install was found in ${p.project} or ${p.home}: run assay install first.`);
    return EXIT.blocked;
  }
  apply(changes, Boolean(opts.dryRun));
  if (opts.dryRun) console.log("Dry run: nothing was written.");
  const doc = await callApi<{ info: { version: string } }>(baseUrl, "GET", "/api/openapi.json");
  const server = doc.body.info.version;
  console.log(
    `Client version ${pkg.version}, server ${baseUrl} version ${server}${server === pkg.version ? " (the same)" : " (they differ: update the client, npm install --global assay-cli, to match the server)"}.`,
  );
  return EXIT.pass;
}

const collectClient = (value: string, previous: string[] = []) => {
  if (!clientNamed(value))
    throw new UsageError(
      `--client ${value}: not a client assay install knows; one of ${CLIENTS.map((c) => c.name).join(", ")}`,
    );
  return [...previous, value];
};

/** install and update: the agents' MCP registration and AGENTS.md. */
export function registerInstallCommands(program: Command): void {
  program
    .command("install")
    .description(
      `register Assay's MCP server for the MCP clients found here or named: ${CLIENTS.map((c) => `${c.label} (${c.name})`).join(", ")}, each at user or project scope; and, for a project, an Assay section in AGENTS.md. Each entry launches \`assay mcp\`, which reads the stored key when it starts: no file holds a key. A second run changes nothing. Exit 1 when no client is found`,
    )
    .option(...BASE_URL_OPTION)
    .option("--client <name>", "a client to set up, repeatable (default: every client found)", collectClient)
    .addOption(
      new Option(
        "--scope <scope>",
        "user (your own settings) or project (this folder's, to commit); default: where each client was found",
      ).choices(SCOPES),
    )
    .option("--dry-run", "show each file's change as a diff and write nothing")
    .action(action((opts: InstallOptions) => install(opts)));

  program
    .command("update")
    .description(
      "refresh what assay install wrote (for the base URL given now, so it also moves the agents to another server) and report this client's version against the server's. Exit 1 when nothing was installed",
    )
    .option(...BASE_URL_OPTION)
    .option("--dry-run", "show each file's change as a diff and write nothing")
    .action(reporting((opts: { baseUrl?: string; dryRun?: boolean }) => update(opts)));
}
