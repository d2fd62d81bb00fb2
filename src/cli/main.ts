import { parseArgs } from "node:util";
import { openOperator } from "../app";
import type { OperatorService } from "../services/operator";
import { ALL_SCOPES, type Scope } from "../domain/accounts";
import { AppError } from "../errors/app-error";

const USAGE = `assay <command>

  serve                      serve HTTP and the SMTP inbox (configured by environment; see README)
  replay                     drop every read table and rebuild them from the event log
  ledger verify [--customer ID] [--json]
                             check the hash chain and recompute every balance; exits 1 on any mismatch
  key mint --customer ID --scope SCOPE [--scope SCOPE …] [--name NAME]
                             operator: mint a key for an organization on this server's data directory
                             (scopes: ${ALL_SCOPES.join(", ")})
  key revoke --key KEY_ID    operator: revoke a key; requests with it are refused with AUTH_REQUIRED from then on
`;

export async function runCli(argv: string[]): Promise<number> {
  const [command, sub] = argv;
  try {
    switch (command) {
      case "serve":
        return await (await import("./serve")).serve();
      case "replay":
        return withOperator(replay);
      case "ledger":
        if (sub === "verify") return withOperator((operator) => ledgerVerify(operator, argv.slice(2)));
        break;
      case "key":
        if (sub === "mint") return keyMint(argv.slice(2));
        if (sub === "revoke") return keyRevoke(argv.slice(2));
        break;
      case undefined:
      case "help":
      case "--help":
        console.log(USAGE);
        return command ? 0 : 2;
    }
    console.error(`unknown command: ${argv.join(" ")}\n\n${USAGE}`);
    return 2;
  } catch (e) {
    if (e instanceof AppError) {
      console.error(`${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/** Runs an operator command over the composition root's operator service, closing the store after. */
function withOperator(command: (operator: OperatorService) => number): number {
  const { operator, close } = openOperator();
  try {
    return command(operator);
  } finally {
    close();
  }
}

function replay(operator: OperatorService): number {
  const started = performance.now();
  const { events } = operator.replay();
  console.log(`replayed ${events} events into fresh read tables in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

function ledgerVerify(operator: OperatorService, args: string[]): number {
  const { values } = parseArgs({ args, options: { customer: { type: "string" }, json: { type: "boolean" } } });
  const report = operator.verifyLedger(values.customer);
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`events: ${report.events}, credit events: ${report.creditEvents}, organizations: ${report.customers}`);
    for (const [customerId, balance] of Object.entries(report.balances)) console.log(`  ${customerId}: ${balance}`);
    for (const p of report.problems) {
      console.log(`MISMATCH${p.position !== undefined ? ` at position ${p.position}` : ""}${p.customerId ? ` (${p.customerId})` : ""}: ${p.message}`);
    }
    console.log(report.ok ? "ledger verified: hash chain intact, balances match" : `ledger verification FAILED: ${report.problems.length} problem(s)`);
  }
  return report.ok ? 0 : 1;
}

function keyMint(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: { customer: { type: "string" }, scope: { type: "string", multiple: true }, name: { type: "string" } },
  });
  const scopes = (values.scope ?? []) as Scope[];
  const bad = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (!values.customer || scopes.length === 0 || bad.length) {
    console.error(bad.length ? `unknown scope(s): ${bad.join(", ")}` : USAGE);
    return 2;
  }
  const customerId = values.customer;
  return withOperator((operator) => {
    console.log(JSON.stringify(operator.mintKey(customerId, values.name ?? "operator key", scopes)));
    return 0;
  });
}

function keyRevoke(args: string[]): number {
  const { values } = parseArgs({ args, options: { key: { type: "string" } } });
  const keyId = values.key;
  if (!keyId) {
    console.error(USAGE);
    return 2;
  }
  return withOperator((operator) => {
    console.log(JSON.stringify(operator.revokeKey(keyId)));
    return 0;
  });
}
