import { registerAuthCommands } from "./commands/auth";
import { registerBrowserWorkerCommand } from "./commands/browser-worker";
import { registerInstallCommands } from "./commands/install";
import { registerOperatorCommands } from "./commands/operator";
import { registerRunCommands } from "./commands/run";
import { registerSiteCommand } from "./commands/site";
import { newProgram, runProgram } from "./program";

/** `assay <command>`: every command on one parser (commander); each command's module registers it. */
export async function runCli(argv: string[]): Promise<number> {
  const program = newProgram();
  registerOperatorCommands(program);
  registerBrowserWorkerCommand(program);
  registerAuthCommands(program);
  registerInstallCommands(program);
  registerRunCommands(program);
  registerSiteCommand(program);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  return runProgram(program, argv);
}
