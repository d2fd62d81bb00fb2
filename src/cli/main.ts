import pkg from "../../package.json" with { type: "json" };
import { AppError } from "../errors/app-error";
import { registerBrowserWorkerCommand } from "./commands/browser-worker";
import { registerJudgeCommands } from "./commands/judge";
import { registerOperatorCommands } from "./commands/operator";
import { newProgram, runProgram } from "./program";

const CLIENT_COMMANDS =
  "\nThe client's commands (login, status, run, site, install, mcp, …) are the `assay` of the client package, packages/cli\n(`npm install --global assay-cli`, or the tarball `npm pack` makes there): docs/cli.md.";

/** `assay <command>` of the server's binary: the server and its operator commands, on one parser (commander). */
export async function runCli(argv: string[]): Promise<number> {
  const program = newProgram(
    "Assay: headless QA for webpages and emails. The server and its operator commands.",
    pkg.version,
  ).addHelpText("after", CLIENT_COMMANDS);
  registerOperatorCommands(program);
  registerJudgeCommands(program);
  registerBrowserWorkerCommand(program);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    return await runProgram(program, argv);
  } catch (e) {
    // An operator command's refusal (the services throw catalogued errors): its code and message, exit 1.
    if (!(e instanceof AppError)) throw e;
    console.error(`${e.code}: ${e.message}`);
    return 1;
  }
}
