import type { Command } from "commander";
import type { OperatorService } from "../../services/operator";
import { ALL_SCOPES, type Scope } from "../../domain/accounts";
import { action, UsageError } from "../program";

/**
 * Runs an operator command over the composition root's operator service, closing the log after. The composition
 * root is imported here, not at the top: the client commands (and --version) start without loading the server.
 */
async function withOperator(command: (operator: OperatorService) => number | Promise<number>): Promise<number> {
  const { openOperator } = await import("../../app");
  const { operator, close } = await openOperator();
  try {
    return await command(operator);
  } finally {
    await close();
  }
}

/** The server's own commands, run on this machine's data directory: serve, replay, ledger verify, feedback report, key mint/revoke, credits grant/deduct, plan set, billing provision. */
export function registerOperatorCommands(program: Command): void {
  program
    .command("serve")
    .description("serve HTTP and the SMTP inbox (configured by environment; see docs/configuration.md)")
    .action(action(async () => (await import("../serve")).serve()));

  program
    .command("replay")
    .description("drop every read table and rebuild them from the event log")
    .action(
      action(() =>
        withOperator(async (operator) => {
          const started = performance.now();
          const { events } = await operator.replay();
          console.log(
            `replayed ${events} events into fresh read tables in ${Math.round(performance.now() - started)} ms`,
          );
          return 0;
        }),
      ),
    );

  program
    .command("migrate-store")
    .description(
      "copy DATA_DIR's SQLite event log into an empty PostgreSQL database and verify the copy's chain end to end; exits 1 if it does not verify",
    )
    .option("--to <url>", "the PostgreSQL database (postgres://…); default ASSAY_DATABASE_URL")
    .action(
      action(async (opts: { to?: string }) => {
        const { loadConfig } = await import("../../config");
        const config = loadConfig({ ...process.env, ASSAY_DATABASE_URL: "" });
        const to = opts.to ?? process.env.ASSAY_DATABASE_URL;
        if (!to || !/^postgres(ql)?:\/\//.test(to))
          throw new UsageError("give the PostgreSQL database with --to postgres://… (or ASSAY_DATABASE_URL)");
        const { migrateStore } = await import("../../app");
        const started = performance.now();
        const migration = await migrateStore(config, to);
        for (const p of migration.problems)
          console.log(`MISMATCH${p.position !== undefined ? ` at position ${p.position}` : ""}: ${p.message}`);
        console.log(
          migration.verified
            ? `copied ${migration.events} events from ${config.dataDir} in ${Math.round(performance.now() - started)} ms; chain verified end to end, head ${migration.head.position} ${migration.head.hash}`
            : `migration copied ${migration.events} events but did NOT verify: ${migration.problems.length} problem(s)`,
        );
        return migration.verified ? 0 : 1;
      }),
    );

  program
    .command("ledger")
    .description("the credit ledger")
    .command("verify")
    .description("check the hash chain and recompute every balance; exits 1 on any mismatch")
    .option("--customer <id>", "one organization only")
    .option("--json", "the report as JSON")
    .action(
      action((opts: { customer?: string; json?: boolean }) =>
        withOperator(async (operator) => {
          const report = await operator.verifyLedger(opts.customer);
          if (opts.json) console.log(JSON.stringify(report, null, 2));
          else {
            console.log(
              `events: ${report.events}, credit events: ${report.creditEvents}, organizations: ${report.customers}`,
            );
            for (const [customerId, balance] of Object.entries(report.balances))
              console.log(`  ${customerId}: ${balance}`);
            for (const p of report.problems) {
              console.log(
                `MISMATCH${p.position !== undefined ? ` at position ${p.position}` : ""}${p.customerId ? ` (${p.customerId})` : ""}: ${p.message}`,
              );
            }
            console.log(
              report.ok
                ? "ledger verified: hash chain intact, balances match"
                : `ledger verification FAILED: ${report.problems.length} problem(s)`,
            );
          }
          return report.ok ? 0 : 1;
        }),
      ),
    );

  program
    .command("feedback")
    .description("feedback filed on verdicts")
    .command("report")
    .description("per check: looks-wrong feedback, disputed verdicts by direction, and the notes, newest first")
    .option("--since <date>", "only feedback filed on or after this date (YYYY-MM-DD or an ISO time)")
    .option("--json", "the report as JSON")
    .action(
      action((opts: { since?: string; json?: boolean }) => {
        const since = opts.since === undefined ? undefined : new Date(opts.since);
        if (since && Number.isNaN(since.getTime())) throw new UsageError(`--since ${opts.since} is not a date`);
        return withOperator(async (operator) => {
          const report = await operator.feedbackReport(since?.toISOString());
          if (opts.json) console.log(JSON.stringify(report, null, 2));
          else if (report.checks.length === 0)
            console.log(`No feedback${since ? ` since ${since.toISOString()}` : ""}.`);
          else {
            for (const c of report.checks) {
              console.log(
                `${c.validationId}: ${c.feedback} feedback, ${c.disputed} disputed (${c.falseFail} false fail, ${c.missedProblem} missed problem, ${c.error} error)`,
              );
              for (const n of c.notes) {
                const notes = [n.aiMistakeNotes, n.verdictComments, n.feedbackNotes].filter(Boolean).join(" | ");
                console.log(
                  `  ${n.submittedAt} job ${n.jobId}: ${n.storedVerdict} -> ${n.humanVerdict} (${n.source}): ${notes}`,
                );
              }
            }
          }
          return 0;
        });
      }),
    );

  program
    .command("billing")
    .description("operator: the billing provider (ASSAY_BILLING_PROVIDER)")
    .command("provision")
    .description(
      "operator: set an organization up with the billing provider (its customer and the free subscription); safe to repeat",
    )
    .requiredOption("--customer <id>", "the organization")
    .action(
      action((opts: { customer: string }) =>
        withOperator(async (operator) => {
          console.log(await operator.provisionBilling(opts.customer));
          return 0;
        }),
      ),
    );

  const key = program.command("key").description("operator: keys on this server's data directory");
  key
    .command("mint")
    .description(`operator: mint a key for an organization (scopes: ${ALL_SCOPES.join(", ")})`)
    .requiredOption("--customer <id>", "the organization")
    .requiredOption("--scope <scope...>", "a scope (repeat for more)")
    .option("--name <name>", "a name for the key", "operator key")
    .action(
      action((opts: { customer: string; scope: string[]; name: string }) => {
        const bad = opts.scope.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
        if (bad.length) throw new UsageError(`unknown scope(s): ${bad.join(", ")}`);
        return withOperator(async (operator) => {
          console.log(JSON.stringify(await operator.mintKey(opts.customer, opts.name, opts.scope as Scope[])));
          return 0;
        });
      }),
    );
  key
    .command("revoke")
    .description("operator: revoke a key; requests with it are refused with AUTH_REQUIRED from then on")
    .requiredOption("--key <keyId>", "the key's id")
    .action(
      action((opts: { key: string }) =>
        withOperator(async (operator) => {
          console.log(JSON.stringify(await operator.revokeKey(opts.key)));
          return 0;
        }),
      ),
    );

  const credits = program
    .command("credits")
    .description("operator: credits on this server's data directory, recorded with you as the actor");
  for (const [name, description, move] of [
    [
      "grant",
      "operator: grant credits to an organization",
      (o: OperatorService, c: string, n: number, r: string) => o.grantCredits(c, n, r),
    ],
    [
      "deduct",
      "operator: take credits back from an organization (never below zero)",
      (o: OperatorService, c: string, n: number, r: string) => o.deductCredits(c, n, r),
    ],
  ] as const) {
    credits
      .command(name)
      .description(description)
      .requiredOption("--customer <id>", "the organization")
      .requiredOption("--amount <credits>", `a whole number of credits, from 1 to ${Number.MAX_SAFE_INTEGER}`)
      .requiredOption("--reason <text>", "why, recorded with the event (up to 500 characters)")
      .action(
        action((opts: { customer: string; amount: string; reason: string }) => {
          const amount = Number(opts.amount);
          if (!/^[1-9]\d*$/.test(opts.amount) || !Number.isSafeInteger(amount)) {
            throw new UsageError(
              `--amount must be a whole number of credits, from 1 to ${Number.MAX_SAFE_INTEGER}; got ${JSON.stringify(opts.amount)}`,
            );
          }
          const reason = opts.reason.trim();
          if (!reason || reason.length > 500) throw new UsageError("--reason must say why, in 1 to 500 characters");
          return withOperator(async (operator) => {
            console.log(JSON.stringify(await move(operator, opts.customer, amount, reason)));
            return 0;
          });
        }),
      );
  }

  program
    .command("plan")
    .description("operator: organizations' plans")
    .command("set")
    .description("operator: move an organization to another plan of the plan catalog")
    .requiredOption("--customer <id>", "the organization")
    .requiredOption("--plan <code>", "a plan code of the catalog (ASSAY_PLANS_FILE, or the built-in one)")
    .action(
      action((opts: { customer: string; plan: string }) =>
        withOperator(async (operator) => {
          console.log(JSON.stringify(await operator.setPlan(opts.customer, opts.plan)));
          return 0;
        }),
      ),
    );
}
