import { Command, CommanderError } from "commander";

/**
 * The exit codes every client command keeps (documented in docs/cli.md): 0 pass, 1 blocked (a threshold was
 * crossed, a check failed, a verification found a mismatch), 2 undecided (refused, expired, timed out,
 * unreachable, no key, bad usage).
 */
export const EXIT = { pass: 0, blocked: 1, undecided: 2 } as const;

/** Bad usage found after parsing (an unknown scope, a missing file): exit 2 with the message. */
export class UsageError extends Error {}

/** The exit code of the command that ran; commander's actions return nothing, so each action records its own. */
let exitCode: number = EXIT.pass;

/** Wraps a command's body: its number is the process's exit code. */
export function action<A extends unknown[]>(run: (...args: A) => number | Promise<number>) {
  return async (...args: A): Promise<void> => {
    exitCode = await run(...args);
  };
}

/**
 * A program whose commands are added by the register functions: one parser for every command, `--help` on each,
 * and commander's "(Did you mean …?)" after an unknown command or option.
 */
export function newProgram(description: string, version: string): Command {
  return new Command()
    .name("assay")
    .description(description)
    .version(version, "-v, --version")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .showSuggestionAfterError()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      writeOut: (text) => process.stdout.write(text),
    });
}

/** Parses and runs; the exit code of the command, or of why none ran (help and version: 0; bad usage: 2). */
export async function runProgram(program: Command, argv: string[]): Promise<number> {
  exitCode = EXIT.pass;
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help"
        ? EXIT.pass
        : EXIT.undecided;
    }
    if (e instanceof UsageError) {
      console.error(e.message);
      return EXIT.undecided;
    }
    throw e;
  }
}
