import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import fc from "fast-check";
import { openEventLog, plansFor } from "../../src/app";
import { loadConfig, type Config } from "../../src/config";
import { loadFeedbackSets } from "../../src/catalog/feedback-sets";
import { FeedbackService } from "../../src/services/feedback";
import { OperatorService } from "../../src/services/operator";
import type { PlanService } from "../../src/services/plans";
import { AppError } from "../../src/errors/app-error";
import { AccountService } from "../../src/services/accounts";
import { AddressLimits } from "../../src/services/address-limits";
import { verifyLedger } from "../../src/services/audit";
import { NetworkGuard } from "../../src/capture/network-guard";
import { planJob } from "../../src/domain/job-request";
import type { PlannedJob } from "../../src/domain/planned-job";
import {
  decide as decideJob,
  jobState,
  JobStateError,
  type JobEvent,
  type RecordedResult,
} from "../../src/domain/jobs";
import { streams } from "../../src/domain/accounts";
import { chargeForJob, creditState } from "../../projections/credits";
import { ConcurrencyError, type EventLog, type StreamWrite } from "../../src/store/event-log";
import type { ReadModels } from "../../projections/projection";
import type { EventMetadata } from "../../events/metadata";
import { tempDataDir } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Properties of the ledger, over the real log, projections, deciders and services: for any sequence of signups,
 * jobs (accepted and charged, settled with any verdicts, refunded by the one rule, settled again by mistake),
 * operator grants and deductions (OperatorService), monthly grants in any month (PlanService), looks-wrong feedback
 * payouts, repeated (FeedbackService), and racing decisions made on the same stale state, balances never go
 * negative, each job is charged once and settled once, each set and anchor pays once, each month is granted once,
 * the read model equals a model kept beside it, and `ledger verify` recomputes every balance from the events alone.
 * The same properties on both logs: one SQLite file, and PostgreSQL with a node's copy (a fresh database per run).
 */
setDefaultTimeout(300_000);

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const SIGNUP_CREDITS = 40;
const MONTHLY_CREDITS = 60;
/** Looks-wrong feedback is filed by a key: its credential. */
const KEY_META: EventMetadata = { actor: { kind: "key", id: "key_property" }, channel: "api" };
const CUSTOMERS = 2;

const PAGE =
  '<html lang="en"><head><title>T</title><meta name="description" content="d"></head><body><h1>Hi</h1></body></html>';
/** A few real plans of different prices, planned once by the real planner. */
let plans: PlannedJob[] = [];

beforeAll(async () => {
  const guard = new NetworkGuard(false);
  const body = (validations: string[]) => ({
    type: "static_html",
    html: PAGE,
    baseUrl: "https://example.com/",
    validations,
  });
  plans = await Promise.all([
    planJob(body(["page-title"]), guard),
    planJob(body(["page-title", "meta-description", "html-lang"]), guard),
    planJob(
      { type: "static_html", html: PAGE, baseUrl: "https://example.com/", validationSetId: "web-essentials" },
      guard,
    ),
  ]);
});

type Verdict = "pass" | "fail" | "error";
type Command =
  | { kind: "job"; customer: number; plan: number; verdicts: Verdict[]; settleTwice: boolean; reaccept: boolean }
  | { kind: "grant"; customer: number; amount: number }
  | { kind: "deduct"; customer: number; amount: number }
  /** Two jobs decided on the same snapshot of the ledger, then appended: the second must re-decide, never double-spend. */
  | { kind: "race"; customer: number; plans: [number, number] }
  /** The monthly grant as a request in a later month would make it (0: this month, which the signup grant covers). */
  | { kind: "monthly"; customer: number; month: number }
  /** Looks-wrong feedback on one result of an earlier job (by index), agreeing with the stored verdict. */
  | { kind: "feedback"; job: number; check: number };

const customer = fc.integer({ min: 0, max: CUSTOMERS - 1 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("job" as const),
      customer,
      plan: fc.integer({ min: 0, max: 2 }),
      verdicts: fc.array(fc.constantFrom<Verdict>("pass", "fail", "error"), { minLength: 12, maxLength: 12 }),
      settleTwice: fc.boolean(),
      reaccept: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("grant" as const), customer, amount: fc.integer({ min: 0, max: 30 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("deduct" as const), customer, amount: fc.integer({ min: 1, max: 50 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("race" as const),
      customer,
      plans: fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("monthly" as const), customer, month: fc.integer({ min: 0, max: 3 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("feedback" as const), job: fc.nat(), check: fc.nat() }) },
);

/** The world one run acts on: a fresh log, and a model of what each balance must be. */
class World {
  constructor(private readonly seen: ReturnType<typeof newTally>) {}

  readonly dir = tempDataDir();
  log!: EventLog;
  private readModels!: ReadModels;
  readonly customers: string[] = [];
  readonly model = new Map<string, number>();
  /** Every job charged, and the settled ones with their rows (what feedback can be about). */
  readonly charged: string[] = [];
  readonly jobs: Array<{ jobId: string; customerId: string; rows: RecordedResult[] }> = [];
  /** Months granted, and looks-wrong anchors paid, as the model knows them. */
  private readonly months = new Set<string>();
  private readonly paid = new Set<string>();
  private seq = 0;
  private config!: Config;
  private plans!: PlanService;
  private operator!: OperatorService;
  private feedback!: FeedbackService;

  /** `databaseUrl`: a fresh PostgreSQL database for the log; unset, SQLite. */
  async open(databaseUrl?: string): Promise<void> {
    this.config = loadConfig({
      DATA_DIR: this.dir,
      ASSAY_SIGNUP_CREDITS: String(SIGNUP_CREDITS),
      ASSAY_FREE_MONTHLY_CREDITS: String(MONTHLY_CREDITS),
      ...(databaseUrl ? { ASSAY_DATABASE_URL: databaseUrl } : {}),
    });
    const { log, readModels, keyUsage } = await openEventLog(this.config);
    this.log = log;
    this.readModels = readModels;
    this.feedback = new FeedbackService({ log, readModels }, loadFeedbackSets());
    this.plans = plansFor(this.config)({ log, readModels });
    const accounts = new AccountService({
      config: this.config,
      log,
      readModels,
      keyUsage,
      plans: this.plans,
      limits: new AddressLimits(this.config),
    });
    this.operator = new OperatorService({ log, readModels, plans: this.plans }, accounts);
    for (let i = 0; i < CUSTOMERS; i++) {
      const { customerId } = await accounts.signup(`prop-${i}@example.com`, META);
      this.customers.push(customerId);
      this.model.set(customerId, SIGNUP_CREDITS);
    }
  }

  async close(): Promise<void> {
    await this.log?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  ledger(customerId: string) {
    return creditState(this.readModels, customerId);
  }

  private job(jobId: string) {
    return jobState(this.log.readStream(streams.job(jobId)) as unknown as JobEvent[]);
  }

  /** Accepts and charges a job on the ledger as read now; INSUFFICIENT_CREDITS leaves everything as it was. */
  acceptWrites(jobId: string, customerId: string, plan: PlannedJob): StreamWrite[] {
    return decideJob(
      { kind: "accept", jobId, customerId, job: plan },
      {
        job: this.job(jobId),
        credits: { ...this.ledger(customerId), existingCharge: chargeForJob(this.readModels, jobId) },
      },
    );
  }

  async run(cmd: Command): Promise<void> {
    switch (cmd.kind) {
      case "job": {
        const customerId = this.customers[cmd.customer]!;
        const plan = plans[cmd.plan]!;
        const jobId = `job_prop_${++this.seq}`;
        if (!(await this.tryAccept(jobId, customerId, plan))) return;
        if (cmd.reaccept) {
          // The same job id again (a retried request): never a second charge.
          expect(
            await refusal(this.log.appendSoon(() => this.acceptWrites(jobId, customerId, plan), META)),
          ).toBeInstanceOf(JobStateError);
        }
        const rows: RecordedResult[] = plan.run.map((v, i) => ({
          validationId: v.module.meta.id,
          severity: v.severity,
          credits: v.credits,
          outcome:
            cmd.verdicts[i] === "error"
              ? { verdict: "error", reason: "crashed", reasoning: "crashed", findings: [] }
              : { verdict: cmd.verdicts[i]!, reasoning: "r", findings: [] },
          captureKeys: [],
          durationMs: 1,
        }));
        const settle = () =>
          this.log.appendSoon(
            () =>
              decideJob(
                { kind: "settle", results: rows, captures: [] },
                { job: this.job(jobId), credits: this.ledger(customerId) },
              ),
            META,
          );
        await settle();
        this.jobs.push({ jobId, customerId, rows });
        this.adjust(
          customerId,
          rows.filter((r) => r.outcome.verdict === "error").reduce((n, r) => n + r.credits, 0),
        );
        if (cmd.settleTwice) expect(await refusal(settle())).toBeInstanceOf(JobStateError);
        return;
      }
      case "grant": {
        const customerId = this.customers[cmd.customer]!;
        await this.operator.grantCredits(customerId, cmd.amount, "property test");
        this.adjust(customerId, cmd.amount);
        return;
      }
      case "deduct": {
        const customerId = this.customers[cmd.customer]!;
        if (cmd.amount > this.model.get(customerId)!) {
          expect(await refusal(this.operator.deductCredits(customerId, cmd.amount, "property test"))).toBeInstanceOf(
            AppError,
          );
          return;
        }
        await this.operator.deductCredits(customerId, cmd.amount, "property test");
        this.adjust(customerId, -cmd.amount);
        return;
      }
      case "monthly": {
        const customerId = this.customers[cmd.customer]!;
        const later = plansFor({ ...this.config, clockOffsetDays: 31 * cmd.month })({
          log: this.log,
          readModels: this.readModels,
        });
        // Twice, as two requests of that month would: the second grants nothing.
        for (let i = 0; i < 2; i++) await later.entitle(customerId);
        const month = `${customerId}/${new Date(Date.now() + 31 * cmd.month * 86_400_000).toISOString().slice(0, 7)}`;
        if (cmd.month > 0 && !this.months.has(month)) {
          this.months.add(month);
          this.seen.monthlyGrants++;
          this.adjust(customerId, Math.max(0, MONTHLY_CREDITS - this.model.get(customerId)!));
        }
        return;
      }
      case "feedback": {
        if (this.jobs.length === 0) return;
        const job = this.jobs[cmd.job % this.jobs.length]!;
        const row = job.rows[cmd.check % job.rows.length]!;
        const verdict = row.outcome.verdict;
        const submit = () =>
          this.feedback.submit(
            job.customerId,
            {
              setId: "looks-wrong",
              jobId: job.jobId,
              validationId: row.validationId,
              answers: [
                { questionId: "humanVerdict", value: verdict },
                { questionId: "aiMistakeNotes", value: null },
                { questionId: "verdictComments", value: verdict === "pass" ? null : "The stored verdict is right." },
                { questionId: "feedbackNotes", value: null },
              ],
            },
            KEY_META,
          );
        const anchor = `${job.jobId}/${row.validationId}`;
        if (this.paid.has(anchor)) {
          expect(await refusal(submit())).toMatchObject({ code: "FEEDBACK_ALREADY_GIVEN" });
          this.seen.repeatedPayouts++;
          return;
        }
        const receipt = await submit();
        this.paid.add(anchor);
        this.seen.payouts++;
        // The reward is what the check cost on that job, net of its refund: an errored row earns nothing.
        const reward = verdict === "error" ? 0 : row.credits;
        expect(receipt.payout.credits).toBe(reward);
        this.adjust(job.customerId, reward);
        return;
      }
      case "race": {
        const customerId = this.customers[cmd.customer]!;
        const [a, b] = cmd.plans.map((p) => ({ jobId: `job_prop_${++this.seq}`, plan: plans[p]! }));
        // Both decided on the same state of the ledger...
        const decided = [a!, b!].map((j) => {
          try {
            return { ...j, writes: this.acceptWrites(j.jobId, customerId, j.plan) };
          } catch (e) {
            if (e instanceof AppError && e.code === "INSUFFICIENT_CREDITS") return null;
            throw e;
          }
        });
        // ...then appended: the first wins; the second finds the ledger moved and must decide again on fresh state.
        let first = true;
        for (const d of decided) {
          if (!d) continue;
          if (first) {
            await this.log.append(d.writes, META);
            this.adjust(customerId, -d.plan.totalCredits);
            this.charged.push(d.jobId);
            first = false;
            continue;
          }
          expect(await refusal(this.log.append(d.writes, META))).toBeInstanceOf(ConcurrencyError);
          this.seen.races++;
          await this.tryAccept(d.jobId, customerId, d.plan);
        }
        return;
      }
    }
  }

  private async tryAccept(jobId: string, customerId: string, plan: PlannedJob): Promise<boolean> {
    try {
      await this.log.appendSoon(() => this.acceptWrites(jobId, customerId, plan), META);
    } catch (e) {
      if (e instanceof AppError && e.code === "INSUFFICIENT_CREDITS") {
        expect(plan.totalCredits).toBeGreaterThan(this.model.get(customerId)!);
        return false;
      }
      throw e;
    }
    this.adjust(customerId, -plan.totalCredits);
    this.charged.push(jobId);
    return true;
  }

  private adjust(customerId: string, delta: number): void {
    const next = this.model.get(customerId)! + delta;
    expect(next).toBeGreaterThanOrEqual(0);
    this.model.set(customerId, next);
  }

  /** The properties, checked after every run. */
  async check(): Promise<void> {
    for (const customerId of this.customers) expect(this.ledger(customerId).balance).toBe(this.model.get(customerId)!);
    const events = await Array.fromAsync(this.log.readLog());
    for (const jobId of this.charged) {
      expect(events.filter((e) => e.type === "CreditsCharged" && e.data.jobId === jobId)).toHaveLength(1);
      expect(events.filter((e) => e.type === "JobSettled" && e.data.jobId === jobId).length).toBeLessThanOrEqual(1);
      expect(events.filter((e) => e.type === "CreditsRefunded" && e.data.jobId === jobId).length).toBeLessThanOrEqual(
        1,
      );
    }
    const report = await verifyLedger(this.log, this.readModels);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    for (const customerId of this.customers) expect(report.balances[customerId]).toBe(this.model.get(customerId)!);
    const payouts = events.filter((e) => e.type === "CreditsGranted" && e.data.reason === "feedback");
    expect(new Set(payouts.map((e) => JSON.stringify(e.type === "CreditsGranted" && e.data.feedback))).size).toBe(
      payouts.length,
    );
    const monthly = events.filter((e) => e.type === "CreditsGranted" && e.data.reason === "monthly");
    expect(monthly).toHaveLength(this.months.size);
  }
}

/** What a promise was refused with (null when it was not). */
const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

/**
 * What the runs did on each log, so that a property that held only because nothing happened cannot pass. Each log
 * ran; each kind of step happened on the two together (the same generator drives both, and 30 runs on PostgreSQL
 * alone may draw no race now and then).
 */
const seen = { sqlite: newTally(), postgres: newTally() };
function newTally() {
  return { runs: 0, payouts: 0, repeatedPayouts: 0, monthlyGrants: 0, races: 0 };
}
afterAll(() => {
  for (const tally of Object.values(seen)) expect(tally.runs).toBeGreaterThan(0);
  for (const kind of Object.keys(seen.sqlite) as Array<keyof typeof seen.sqlite>)
    expect([kind, seen.sqlite[kind] + seen.postgres[kind]]).not.toEqual([kind, 0]);
});

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

for (const backend of ["sqlite", "postgres"] as const) {
  test(`on ${backend}: for any sequence of jobs, settlements, grants, deductions, monthly grants, feedback payouts and races, the ledger holds`, async () => {
    let databases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 25 }), async (commands) => {
        const world = new World(seen[backend]);
        try {
          await world.open(backend === "postgres" ? await postgres.createDatabase(`ledger_${++databases}`) : undefined);
          for (const c of commands) await world.run(c);
          await world.check();
          seen[backend].runs++;
        } finally {
          await world.close();
        }
      }),
      // PostgreSQL's runs each create a database and commit every append durably: fewer of them keep the file quick.
      { numRuns: backend === "sqlite" ? 80 : 30 },
    );
  });
}
