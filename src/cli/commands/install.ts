import type { Command } from "commander";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { baseUrlOf, callApi } from "../client";
import { action, EXIT, UsageError } from "../program";
import { reporting } from "./auth";

/**
 * `assay install` and `assay update`: Assay's MCP server (<base-url>/mcp) registered for the coding agents found in
 * the project (the current directory) or the home directory, and an instructions section in AGENTS.md. The key is
 * never written: every agent config names the ASSAY_API_KEY environment variable (`export ASSAY_API_KEY=$(assay
 * print-key)`), in the syntax that agent expands.
 */

/** The environment variable the agents read the key from. */
export const KEY_VARIABLE = "ASSAY_API_KEY";
const SERVER_NAME = "assay";
const BEGIN = "<!-- BEGIN assay (written by `assay install`; `assay update` refreshes it) -->";
const END = "<!-- END assay -->";
const TOML_BEGIN = "# BEGIN assay (written by `assay install`; `assay update` refreshes it)";
const TOML_END = "# END assay";

interface Places {
  project: string;
  home: string;
}

/** One file install manages: where, whether the agent is present, and the file's content with Assay's entry in it. */
interface Target {
  agent: string;
  path: string;
  /** What was looked for, named in the message when nothing is found. */
  lookedFor: string[];
  present: (p: Places) => boolean;
  /** The new content, given the current (null: no file yet). */
  render: (current: string | null, mcpUrl: string, baseUrl: string) => string;
  /** Whether the current content holds Assay's entry (what `update` refreshes). */
  installed: (current: string) => boolean;
}

const exists = (...parts: string[]) => existsSync(join(...parts));

/** A JSON config's `mcpServers.assay` set to `entry`, every other key kept; unchanged text when the entry already equals it. */
function withJsonServer(current: string | null, path: string, entry: Record<string, unknown>): string {
  let doc: Record<string, any> = {};
  if (current !== null && current.trim() !== "") {
    try {
      doc = JSON.parse(current);
    } catch (e) {
      throw new UsageError(`${path} is not valid JSON (${(e as Error).message}); fix it and run again`);
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc))
      throw new UsageError(`${path} does not hold a JSON object`);
  }
  if (JSON.stringify(doc.mcpServers?.[SERVER_NAME]) === JSON.stringify(entry)) return current!;
  doc.mcpServers = { ...(doc.mcpServers ?? {}), [SERVER_NAME]: entry };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
const jsonInstalled = (current: string) => {
  try {
    return Boolean(JSON.parse(current)?.mcpServers?.[SERVER_NAME]);
  } catch {
    return false;
  }
};

/** Replaces the text between two marker lines (markers included), or appends the block. */
function withBlock(current: string | null, begin: string, end: string, block: string): string {
  const text = current ?? "";
  const from = text.indexOf(begin);
  const to = text.indexOf(end, from);
  if (from >= 0 && to > from) return text.slice(0, from) + block + text.slice(to + end.length);
  const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${sep}${block}\n`;
}

/** The AGENTS.md section: what Assay is, how to reach it, its MCP tools, the CLI, and where the full reference is. */
function agentInstructions(baseUrl: string, mcpUrl: string): string {
  return [
    BEGIN,
    "## Assay (QA for webpages and emails)",
    "",
    `This project checks its pages and emails with Assay at ${baseUrl}. The MCP server \`${SERVER_NAME}\` (${mcpUrl}) is registered for`,
    `this project's agents; it reads the key from the \`${KEY_VARIABLE}\` environment variable (\`export ${KEY_VARIABLE}=$(assay print-key)\`).`,
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

const TARGETS: Target[] = [
  {
    agent: "Claude Code",
    path: ".mcp.json",
    lookedFor: [".mcp.json", ".claude/", "CLAUDE.md", "~/.claude/"],
    present: (p) =>
      exists(p.project, ".mcp.json") ||
      exists(p.project, ".claude") ||
      exists(p.project, "CLAUDE.md") ||
      exists(p.home, ".claude"),
    render: (current, mcpUrl) =>
      withJsonServer(current, ".mcp.json", {
        type: "http",
        url: mcpUrl,
        headers: { Authorization: `Bearer \${${KEY_VARIABLE}}` },
      }),
    installed: jsonInstalled,
  },
  {
    agent: "Cursor",
    path: ".cursor/mcp.json",
    lookedFor: [".cursor/", "~/.cursor/"],
    present: (p) => exists(p.project, ".cursor") || exists(p.home, ".cursor"),
    render: (current, mcpUrl) =>
      withJsonServer(current, ".cursor/mcp.json", {
        url: mcpUrl,
        headers: { Authorization: `Bearer \${env:${KEY_VARIABLE}}` },
      }),
    installed: jsonInstalled,
  },
  {
    agent: "Gemini CLI",
    path: ".gemini/settings.json",
    lookedFor: [".gemini/", "GEMINI.md", "~/.gemini/"],
    present: (p) => exists(p.project, ".gemini") || exists(p.project, "GEMINI.md") || exists(p.home, ".gemini"),
    render: (current, mcpUrl) =>
      withJsonServer(current, ".gemini/settings.json", {
        httpUrl: mcpUrl,
        headers: { Authorization: `Bearer \${${KEY_VARIABLE}}` },
      }),
    installed: jsonInstalled,
  },
  {
    agent: "Codex",
    path: "~/.codex/config.toml",
    lookedFor: ["~/.codex/"],
    present: (p) => exists(p.home, ".codex"),
    render: (current, mcpUrl) => {
      const block = [
        TOML_BEGIN,
        `[mcp_servers.${SERVER_NAME}]`,
        `url = ${JSON.stringify(mcpUrl)}`,
        `bearer_token_env_var = "${KEY_VARIABLE}"`,
        TOML_END,
      ].join("\n");
      const next = withBlock(current, TOML_BEGIN, TOML_END, block);
      let parsed: any;
      try {
        parsed = Bun.TOML.parse(next);
      } catch (e) {
        throw new UsageError(
          `~/.codex/config.toml would not be valid TOML with Assay's table (${(e as Error).message}); is [mcp_servers.${SERVER_NAME}] already there?`,
        );
      }
      if (parsed?.mcp_servers?.[SERVER_NAME]?.url !== mcpUrl)
        throw new UsageError("~/.codex/config.toml: Assay's table did not come out as written");
      return next;
    },
    installed: (current) => current.includes(TOML_BEGIN),
  },
];

const AGENTS_FILE: Omit<Target, "present" | "lookedFor" | "agent"> = {
  path: "AGENTS.md",
  render: (current, mcpUrl, baseUrl) => withBlock(current, BEGIN, END, agentInstructions(baseUrl, mcpUrl)),
  installed: (current) => current.includes(BEGIN),
};

const resolve = (path: string, p: Places) =>
  path.startsWith("~/") ? join(p.home, path.slice(2)) : join(p.project, path);
const shown = (path: string, p: Places) =>
  path.startsWith("~/") ? path : relative(process.cwd(), join(p.project, path)) || path;

interface Change {
  agent: string;
  path: string;
  file: string;
  before: string | null;
  after: string;
}

/** The files to write: for install, every agent present (and AGENTS.md); for update, every file that holds Assay's entry. */
function plan(mode: "install" | "update", places: Places, baseUrl: string): Change[] {
  const mcpUrl = `${baseUrl}/mcp`;
  const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);
  const chosen: { agent: string; target: Omit<Target, "present" | "lookedFor" | "agent"> }[] = [];
  for (const target of TARGETS) {
    const current = read(resolve(target.path, places));
    if (mode === "install" ? target.present(places) : current !== null && target.installed(current))
      chosen.push({ agent: target.agent, target });
  }
  const agentsMd = read(resolve(AGENTS_FILE.path, places));
  if (mode === "install" ? chosen.length > 0 : agentsMd !== null && AGENTS_FILE.installed(agentsMd)) {
    chosen.push({ agent: "agent instructions", target: AGENTS_FILE });
  }
  return chosen.map(({ agent, target }) => {
    const file = resolve(target.path, places);
    const before = read(file);
    return { agent, path: shown(target.path, places), file, before, after: target.render(before, mcpUrl, baseUrl) };
  });
}

/** A short unified-style listing of the lines a change removes and adds. */
function diffLines(before: string | null, after: string): string[] {
  const old = new Set((before ?? "").split("\n"));
  const now = new Set(after.split("\n"));
  return [
    ...(before ?? "")
      .split("\n")
      .filter((l) => !now.has(l))
      .map((l) => `  - ${l}`),
    ...after
      .split("\n")
      .filter((l) => !old.has(l))
      .map((l) => `  + ${l}`),
  ];
}

/** Shows each change (with --dry-run) or writes it; a file already as it should be is left alone. */
function apply(changes: Change[], dryRun: boolean): number {
  let written = 0;
  for (const change of changes) {
    if (change.before === change.after) {
      console.log(`unchanged  ${change.path} (${change.agent})`);
      continue;
    }
    const verb = change.before === null ? "create" : "update";
    if (dryRun) {
      console.log(`would ${verb}  ${change.path} (${change.agent})`);
      for (const line of diffLines(change.before, change.after)) console.log(line);
      continue;
    }
    mkdirSync(dirname(change.file), { recursive: true });
    writeFileSync(change.file, change.after);
    written++;
    console.log(`${verb}d  ${change.path} (${change.agent})`);
  }
  return written;
}

function places(): Places {
  return { project: process.cwd(), home: process.env.HOME || homedir() };
}

function install(opts: { baseUrl?: string; dryRun?: boolean }): number {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const where = places();
  const changes = plan("install", where, baseUrl);
  if (changes.length === 0) {
    const lookedFor = TARGETS.map((t) => `${t.agent} (${t.lookedFor.join(", ")})`).join("; ");
    console.error(`No coding agent found in ${where.project} or ${where.home}. Looked for: ${lookedFor}.`);
    return EXIT.blocked;
  }
  const written = apply(changes, Boolean(opts.dryRun));
  if (opts.dryRun) console.log("Dry run: nothing was written.");
  else console.log(written ? `Assay's MCP server (${baseUrl}/mcp) is registered.` : "Everything was already in place.");
  console.log(`The agents read the key from ${KEY_VARIABLE}: export ${KEY_VARIABLE}=$(assay print-key)`);
  return EXIT.pass;
}

async function update(opts: { baseUrl?: string; dryRun?: boolean }): Promise<number> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const where = places();
  const changes = plan("update", where, baseUrl);
  if (changes.length === 0) {
    console.error(
      `Nothing written by assay install was found in ${where.project} or ~/.codex/config.toml: run assay install first.`,
    );
    return EXIT.blocked;
  }
  apply(changes, Boolean(opts.dryRun));
  if (opts.dryRun) console.log("Dry run: nothing was written.");
  const doc = await callApi<{ info: { version: string } }>(baseUrl, "GET", "/api/openapi.json");
  const server = doc.body.info.version;
  console.log(
    `Client version ${pkg.version}, server ${baseUrl} version ${server}${server === pkg.version ? " (the same)" : " (they differ: update the assay binary to match the server)"}.`,
  );
  return EXIT.pass;
}

/** install and update: the agents' MCP registration and AGENTS.md. */
export function registerInstallCommands(program: Command): void {
  program
    .command("install")
    .description(
      `register Assay's MCP server (<base-url>/mcp) for the coding agents found in this project or your home: Claude Code (.mcp.json), Cursor (.cursor/mcp.json), Gemini CLI (.gemini/settings.json), Codex (~/.codex/config.toml); and write an Assay section in AGENTS.md. The key is not written: the configs read ${KEY_VARIABLE}. A second run changes nothing. Exit 1 when no agent is found`,
    )
    .option("--base-url <url>", "the Assay server (also ASSAY_BASE_URL; default http://localhost:8080)")
    .option("--dry-run", "show the changes without writing")
    .action(action((opts: { baseUrl?: string; dryRun?: boolean }) => install(opts)));

  program
    .command("update")
    .description(
      "refresh what assay install wrote (for the current base URL) and report this client's version against the server's. Exit 1 when nothing was installed",
    )
    .option("--base-url <url>", "the Assay server (also ASSAY_BASE_URL; default http://localhost:8080)")
    .option("--dry-run", "show the changes without writing")
    .action(reporting((opts: { baseUrl?: string; dryRun?: boolean }) => update(opts)));
}
