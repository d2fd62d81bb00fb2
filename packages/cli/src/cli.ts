import type { Command } from "commander";
import pkg from "../package.json" with { type: "json" };
import { registerAuthCommands } from "./commands/auth";
import { registerBaselineCommand } from "./commands/baseline";
import { registerInstallCommands } from "./commands/install";
import { registerMcpCommand } from "./commands/mcp";
import { registerRunCommands } from "./commands/run";
import { registerSiteCommand } from "./commands/site";
import { newProgram, runProgram } from "../../../src/cli/program";

/** The client's commands, on any program: this package's `assay`, and the server's binary, which carries them too. */
export function registerClientCommands(program: Command): void {
  registerAuthCommands(program);
  registerInstallCommands(program);
  registerRunCommands(program);
  registerSiteCommand(program);
  registerBaselineCommand(program);
  registerMcpCommand(program);
}

/** `assay <command>` of the client package: every client command on one parser (commander). */
export async function runClient(argv: string[]): Promise<number> {
  const program = newProgram(
    "Assay's command-line client: sign in, run jobs and whole sites, set agents up, and speak MCP over stdio.",
    pkg.version,
  );
  registerClientCommands(program);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  return runProgram(program, argv);
}
