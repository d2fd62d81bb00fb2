import { openSqliteLog, plansFor } from "../src/app";
import { loadConfig } from "../src/config";
import { rebuildProjections } from "../projections";
import { chargeForJob, creditState } from "../projections/credits";
import { AccountService } from "../src/services/accounts";
import { AddressLimits } from "../src/services/address-limits";
import { NetworkGuard } from "../src/capture/network-guard";
import { planJob } from "../src/domain/job-request";
import type { PlannedJob } from "../src/domain/planned-job";
import { decide, initialJobState, jobState, type JobEvent, type RecordedResult } from "../src/domain/jobs";
import { streams } from "../src/domain/accounts";
import type { SqliteEventLog } from "../src/store/sqlite-event-log";
import { KeyUsage } from "../src/store/key-usage";
import type { EventMetadata } from "../events/metadata";
import type { Outcome } from "../src/validations/types";
import { newJobId, newRequestId } from "../src/services/ids";
import { nowMs, tempDir, type RssSampler } from "./support";
import { LANDING_PAGE_HTML } from "./landing-page";

export interface ReplayResult {
  events: number;
  accounts: number;
  jobs: number;
  buildMs: number;
  replayMs: number;
  rate: number;
  extrapolatedMillionS: number;
  balancesMatch: boolean;
  /** The data directory of the built log (PostgreSQL's replay figure copies it). */
  dataDir: string;
}

/** Plausible check outcomes: most pass, some fail with findings, a few error (and are refunded). */
function outcomeFor(validationId: string, n: number): Outcome {
  if (n % 97 === 0) {
    return {
      verdict: "error",
      reason: "The check crashed: snapshot missing",
      reasoning: "The check crashed: snapshot missing",
      findings: [],
    };
  }
  if (n % 11 === 0) {
    return {
      verdict: "fail",
      reason: `Fix ${validationId} on this page`,
      reasoning: `Found 2 problems for ${validationId} in the desktop-md DOM snapshot.`,
      findings: [
        {
          message: `${validationId}: first problem`,
          selector: "main > section:nth-of-type(2) > div > h3",
          viewport: "desktop-md",
        },
        {
          message: `${validationId}: second problem`,
          selector: "main img:nth-of-type(3)",
          url: "https://example.com/img/hero.png",
        },
      ],
    };
  }
  return {
    verdict: "pass",
    reasoning: `Read 48 visible text blocks and 9 images; nothing for ${validationId} to report.`,
    findings: [],
  };
}

async function runJob(
  store: SqliteEventLog,
  plan: PlannedJob,
  customerId: string,
  meta: EventMetadata,
  n: number,
): Promise<void> {
  const jobId = newJobId();
  const credits = () => ({ ...creditState(store.db, customerId), existingCharge: chargeForJob(store.db, jobId) });
  const accepted = await store.append(
    decide({ kind: "accept", jobId, customerId, job: plan }, { job: initialJobState, credits: credits() }),
    meta,
  );
  const job = jobState(accepted.filter((e) => e.streamId === streams.job(jobId)) as unknown as JobEvent[]);
  const rows: RecordedResult[] = plan.run.map((v, i) => ({
    validationId: v.module.meta.id,
    severity: v.severity,
    credits: v.credits,
    outcome: outcomeFor(v.module.meta.id, n * 13 + i),
    captureKeys: [],
    durationMs: 0.1 + ((n + i) % 7) / 10,
  }));
  await store.append(decide({ kind: "settle", results: rows, captures: [] }, { job, credits: credits() }), meta);
}

/**
 * Builds a realistic log through the real services and domain deciders (signups, then web-essentials
 * jobs: charge + accept, nine results, settle, the odd refund), topped up with operator grants to
 * exactly `target` events; then reopens the file and times rebuildProjections, as `assay replay` does.
 */
export async function benchReplay(rss: RssSampler, target = 100_000, accountCount = 500): Promise<ReplayResult> {
  const dir = tempDir("replay");
  const config = loadConfig({ ...process.env, DATA_DIR: dir, ASSAY_SIGNUP_CREDITS: "1000000" });
  let store = openSqliteLog(dir);
  const over = { log: store, readModels: store.db };
  const plans = plansFor(config)(over);
  const accounts = new AccountService({
    config,
    ...over,
    keyUsage: new KeyUsage(store.db),
    plans,
    limits: new AddressLimits(config),
  });
  const system: EventMetadata = { actor: { kind: "system" }, channel: "system" };
  const plan = await planJob(
    {
      type: "static_html",
      html: LANDING_PAGE_HTML,
      baseUrl: "https://example.com/",
      validationSetId: "web-essentials",
    },
    new NetworkGuard(false),
  );

  const t0 = nowMs();
  const customers: Array<{ customerId: string; keyId: string }> = [];
  for (let i = 0; i < accountCount; i++) {
    const a = await accounts.signup(`bench-${i}@example.com`, {
      requestId: newRequestId(),
      actor: { kind: "system" },
      channel: "api",
    });
    customers.push({ customerId: a.customerId, keyId: a.keyId });
  }
  const eventsPerJobMax = 2 + plan.run.length + 2;
  const maxPosition = store.db.query<{ n: number }, []>("SELECT COALESCE(MAX(position), 0) AS n FROM events");
  let jobs = 0;
  while (maxPosition.get()!.n + eventsPerJobMax <= target) {
    const c = customers[jobs % customers.length]!;
    await runJob(
      store,
      plan,
      c.customerId,
      { requestId: newRequestId(), actor: { kind: "key", id: c.keyId }, channel: "api" },
      jobs,
    );
    if ((++jobs & 255) === 0) rss.sample();
  }
  let position = maxPosition.get()!.n;
  for (let i = 0; position < target; i++, position++) {
    const c = customers[i % customers.length]!;
    const streamId = streams.credits(c.customerId);
    await store.append(
      [
        {
          streamId,
          expectedVersion: "any",
          events: [
            {
              type: "CreditsGranted",
              data: { customerId: c.customerId, amount: 1000, reason: "operator", note: "bench top-up" },
            },
          ],
        },
      ],
      system,
    );
  }
  const buildMs = nowMs() - t0;
  const sumBalances = (s: SqliteEventLog) =>
    s.db.query<{ n: number; c: number }, []>("SELECT SUM(balance) AS n, COUNT(*) AS c FROM credit_balances").get()!;
  const before = sumBalances(store);
  await store.close();
  rss.sample();

  // Replay on a fresh connection, as the CLI does.
  store = openSqliteLog(dir);
  const t1 = nowMs();
  const { events } = await store.rebuildReadModels(rebuildProjections);
  const replayMs = nowMs() - t1;
  rss.sample();
  const after = sumBalances(store);
  await store.close();
  if (events !== target) throw new Error(`replayed ${events} events, expected ${target}`);
  const rate = (events / replayMs) * 1000;
  return {
    events,
    accounts: accountCount,
    jobs,
    buildMs,
    replayMs,
    rate,
    extrapolatedMillionS: 1_000_000 / rate,
    balancesMatch: before.n === after.n && before.c === after.c,
    dataDir: dir,
  };
}
