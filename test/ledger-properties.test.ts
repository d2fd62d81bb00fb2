import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import fc from "fast-check";
import { openStore, plansFor } from "../src/app";
import { loadConfig } from "../src/config";
import { AppError } from "../src/errors/app-error";
import { AccountService } from "../src/services/accounts";
import { verifyLedger } from "../src/services/audit";
import { NetworkGuard } from "../src/capture/network-guard";
import { planJob, type PlannedJob } from "../src/domain/job-request";
import { decide as decideJob, jobState, JobStateError, type JobEvent, type RecordedResult } from "../src/domain/jobs";
import { decide as decideCredits } from "../src/domain/credits";
import { streams } from "../src/domain/accounts";
import { chargeForJob, creditState } from "../projections/credits";
import { ConcurrencyError, type EventStore, type StreamWrite } from "../src/store/event-store";
import type { EventMetadata } from "../events/metadata";
import { tempDataDir } from "./support/harness";

/**
 * Properties of the ledger, over the real store, projections and deciders: for any sequence of signups, jobs
 * (accepted and charged, settled with any verdicts, refunded by the one rule, settled again by mistake), operator
 * grants and deductions, and racing decisions made on the same stale state, balances never go negative, each job
 * is charged once and settled once, the read model equals a model kept beside it, and `ledger verify` recomputes
 * every balance from the events alone.
 */
setDefaultTimeout(300_000);

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const SIGNUP_CREDITS = 40;
const CUSTOMERS = 2;

const PAGE = '<html lang="en"><head><title>T</title><meta name="description" content="d"></head><body><h1>Hi</h1></body></html>';
/** A few real plans of different prices, planned once by the real planner. */
let plans: PlannedJob[] = [];

beforeAll(async () => {
  const guard = new NetworkGuard(false);
  const body = (validations: string[]) => ({ type: "static_html", html: PAGE, baseUrl: "https://example.com/", validations });
  plans = await Promise.all([
    planJob(body(["page-title"]), guard),
    planJob(body(["page-title", "meta-description", "html-lang"]), guard),
    planJob({ type: "static_html", html: PAGE, baseUrl: "https://example.com/", validationSetId: "web-essentials" }, guard),
  ]);
});

type Verdict = "pass" | "fail" | "error";
type Command =
  | { kind: "job"; customer: number; plan: number; verdicts: Verdict[]; settleTwice: boolean; reaccept: boolean }
  | { kind: "grant"; customer: number; amount: number }
  | { kind: "deduct"; customer: number; amount: number }
  /** Two jobs decided on the same snapshot of the ledger, then appended: the second must re-decide, never double-spend. */
  | { kind: "race"; customer: number; plans: [number, number] };

const customer = fc.integer({ min: 0, max: CUSTOMERS - 1 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("job" as const), customer, plan: fc.integer({ min: 0, max: 2 }), verdicts: fc.array(fc.constantFrom<Verdict>("pass", "fail", "error"), { minLength: 12, maxLength: 12 }), settleTwice: fc.boolean(), reaccept: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("grant" as const), customer, amount: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deduct" as const), customer, amount: fc.integer({ min: 1, max: 50 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("race" as const), customer, plans: fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })) }) },
);

/** The world one run acts on: a fresh store, and a model of what each balance must be. */
class World {
  readonly dir = tempDataDir();
  readonly store: EventStore = openStore(this.dir);
  readonly customers: string[] = [];
  readonly model = new Map<string, number>();
  readonly jobs: string[] = [];
  private seq = 0;

  async open(): Promise<void> {
    const config = loadConfig({ DATA_DIR: this.dir, ASSAY_SIGNUP_CREDITS: String(SIGNUP_CREDITS) });
    const accounts = new AccountService({ config, store: this.store, plans: plansFor(config)(this.store) });
    for (let i = 0; i < CUSTOMERS; i++) {
      const { customerId } = await accounts.signup(`prop-${i}@example.com`, META);
      this.customers.push(customerId);
      this.model.set(customerId, SIGNUP_CREDITS);
    }
  }

  close(): void {
    this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  ledger(customerId: string) {
    return creditState(this.store.db, customerId);
  }

  private job(jobId: string) {
    return jobState(this.store.readStream(streams.job(jobId)) as unknown as JobEvent[]);
  }

  /** Accepts and charges a job on the ledger as read now; INSUFFICIENT_CREDITS leaves everything as it was. */
  acceptWrites(jobId: string, customerId: string, plan: PlannedJob): StreamWrite[] {
    return decideJob(
      { kind: "accept", jobId, customerId, job: plan },
      { job: this.job(jobId), credits: { ...this.ledger(customerId), existingCharge: chargeForJob(this.store.db, jobId) } },
    );
  }

  run(cmd: Command): void {
    switch (cmd.kind) {
      case "job": {
        const customerId = this.customers[cmd.customer]!;
        const plan = plans[cmd.plan]!;
        const jobId = `job_prop_${++this.seq}`;
        if (!this.tryAccept(jobId, customerId, plan)) return;
        if (cmd.reaccept) {
          // The same job id again (a retried request): never a second charge.
          expect(() => this.store.append(this.acceptWrites(jobId, customerId, plan), META)).toThrow(JobStateError);
        }
        const rows: RecordedResult[] = plan.run.map((v, i) => ({
          validationId: v.module.meta.id,
          severity: v.severity,
          credits: v.credits,
          outcome: cmd.verdicts[i] === "error" ? { verdict: "error", reason: "crashed", reasoning: "crashed", findings: [] } : { verdict: cmd.verdicts[i]!, reasoning: "r", findings: [] },
          captureKeys: [],
          durationMs: 1,
        }));
        const settle = () => this.store.append(decideJob({ kind: "settle", results: rows, captures: [] }, { job: this.job(jobId), credits: this.ledger(customerId) }), META);
        settle();
        this.adjust(customerId, rows.filter((r) => r.outcome.verdict === "error").reduce((n, r) => n + r.credits, 0));
        if (cmd.settleTwice) expect(settle).toThrow(JobStateError);
        return;
      }
      case "grant": {
        const customerId = this.customers[cmd.customer]!;
        this.appendCredits(customerId, decideCredits({ kind: "grant", customerId, amount: cmd.amount, reason: "operator", note: "property test" }, this.ledger(customerId)));
        this.adjust(customerId, cmd.amount);
        return;
      }
      case "deduct": {
        const customerId = this.customers[cmd.customer]!;
        const balance = this.ledger(customerId).balance;
        if (cmd.amount > balance) return;
        this.appendCredits(customerId, [{ type: "CreditsDeducted", data: { customerId, amount: cmd.amount, reason: "operator", note: "property test" } }]);
        this.adjust(customerId, -cmd.amount);
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
            this.store.append(d.writes, META);
            this.adjust(customerId, -d.plan.totalCredits);
            this.jobs.push(d.jobId);
            first = false;
            continue;
          }
          expect(() => this.store.append(d.writes, META)).toThrow(ConcurrencyError);
          this.tryAccept(d.jobId, customerId, d.plan);
        }
        return;
      }
    }
  }

  private tryAccept(jobId: string, customerId: string, plan: PlannedJob): boolean {
    try {
      this.store.append(this.acceptWrites(jobId, customerId, plan), META);
    } catch (e) {
      if (e instanceof AppError && e.code === "INSUFFICIENT_CREDITS") {
        expect(plan.totalCredits).toBeGreaterThan(this.model.get(customerId)!);
        return false;
      }
      throw e;
    }
    this.adjust(customerId, -plan.totalCredits);
    this.jobs.push(jobId);
    return true;
  }

  private appendCredits(customerId: string, events: StreamWrite["events"]): void {
    this.store.append([{ streamId: streams.credits(customerId), expectedVersion: this.ledger(customerId).streamVersion, events }], META);
  }

  private adjust(customerId: string, delta: number): void {
    const next = this.model.get(customerId)! + delta;
    expect(next).toBeGreaterThanOrEqual(0);
    this.model.set(customerId, next);
  }

  /** The properties, checked after every run. */
  check(): void {
    for (const customerId of this.customers) expect(this.ledger(customerId).balance).toBe(this.model.get(customerId)!);
    const events = [...this.store.readAll()];
    for (const jobId of this.jobs) {
      expect(events.filter((e) => e.type === "CreditsCharged" && e.data.jobId === jobId)).toHaveLength(1);
      expect(events.filter((e) => e.type === "JobSettled" && e.data.jobId === jobId).length).toBeLessThanOrEqual(1);
      expect(events.filter((e) => e.type === "CreditsRefunded" && e.data.jobId === jobId).length).toBeLessThanOrEqual(1);
    }
    const report = verifyLedger(this.store);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    for (const customerId of this.customers) expect(report.balances[customerId]).toBe(this.model.get(customerId)!);
  }
}

let runs = 0;
afterAll(() => expect(runs).toBeGreaterThan(0));

test("for any sequence of jobs, settlements, grants, deductions and races, the ledger holds", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 25 }), async (commands) => {
      const world = new World();
      try {
        await world.open();
        for (const c of commands) world.run(c);
        world.check();
        runs++;
      } finally {
        world.close();
      }
    }),
    { numRuns: 80 },
  );
});
