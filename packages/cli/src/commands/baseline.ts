import type { Command } from "commander";
import type { RunViewBody } from "../../../../src/contracts/run-view";
import { action, EXIT } from "../../../../src/cli/program";
import { callApi } from "../client";
import { BASE_URL_OPTION } from "./auth";
import { connection, undecidedOnFailure } from "./run";

/**
 * `assay baseline set RUN`: names a completed run its project's baseline (POST /api/projects/{project}/baseline),
 * the project read from the run itself, so a CI job that knows only the run's id can promote it.
 */
export function registerBaselineCommand(program: Command): void {
  const baseline = program.command("baseline").description("the baseline a project's runs are compared with");
  baseline
    .command("set <runId>")
    .description("make a completed run its project's baseline, until a run on the base branch completes after it")
    .option(...BASE_URL_OPTION)
    .addHelpText("after", "\nExit codes: 0 set, 2 refused (a run not found or still running), unreachable or no key.")
    .action(
      action((runId: string, opts: { baseUrl?: string }) =>
        undecidedOnFailure(async () => {
          const { baseUrl, key } = await connection(opts);
          const run = (await callApi<RunViewBody>(baseUrl, "GET", `/api/runs/${encodeURIComponent(runId)}`, { key }))
            .body;
          const path = `/api/projects/${encodeURIComponent(run.project)}/baseline`;
          await callApi(baseUrl, "POST", path, { key, body: { runId: run.runId } });
          console.log(`${run.runId} is the baseline of project ${run.project}`);
          return EXIT.pass;
        }),
      ),
    );
}
