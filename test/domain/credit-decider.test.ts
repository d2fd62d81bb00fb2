import { expect, test } from "bun:test";
import { decide, evolve } from "../../src/domain/credits";
import { AppError } from "../../src/errors/app-error";

/**
 * JOB_CHARGE_CONFLICT guards an invariant no request can reach (job ids are minted by the service, never
 * accepted in a body), so it is exercised here, on the ledger's decider, where the invariant lives.
 */
const lines = [{ validationId: "page-title", credits: 1 }];

test("a second charge for a job id is JOB_CHARGE_CONFLICT, whatever the tenant or amount, and decides no event", () => {
  for (const existingCharge of [
    { customerId: "cus_other", amount: 1 },
    { customerId: "cus_a", amount: 5 },
    { customerId: "cus_a", amount: 1 },
  ]) {
    let thrown: unknown;
    try {
      decide({ kind: "charge", customerId: "cus_a", jobId: "job_1", lines }, { balance: 100, existingCharge });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe("JOB_CHARGE_CONFLICT");
    expect((thrown as AppError).status).toBe(409);
    expect((thrown as AppError).details).toMatchObject({
      jobId: "job_1",
      sameTenant: existingCharge.customerId === "cus_a",
      sameAmount: existingCharge.amount === 1,
    });
  }
});

test("a first charge decides one CreditsCharged that folds the balance down; a refund folds it back", () => {
  const charged = decide(
    { kind: "charge", customerId: "cus_a", jobId: "job_1", lines },
    { balance: 3, existingCharge: null },
  );
  expect(charged).toEqual([
    { type: "CreditsCharged", data: { customerId: "cus_a", jobId: "job_1", amount: 1, lines } },
  ]);
  const after = evolve({ balance: 3 }, charged[0]!);
  expect(after.balance).toBe(2);
  const refunded = decide(
    { kind: "refund", customerId: "cus_a", jobId: "job_1", lines: [{ ...lines[0]!, reason: "error row" }] },
    after,
  );
  expect(evolve(after, refunded[0]!).balance).toBe(3);
});

test("the monthly grant: an unpaid plan tops up (0 included), a paid plan adds; once folded, the same period and plan decide nothing", () => {
  const monthly = (balance: number, topUp: boolean, grantedPeriods?: ReadonlySet<string>) =>
    decide(
      {
        kind: "monthly",
        customerId: "cus_a",
        period: "2026-12",
        planCode: topUp ? "free" : "team",
        monthlyCredits: 1000,
        topUp,
      },
      { balance, grantedPeriods },
    );
  expect(monthly(650, true)).toEqual([
    {
      type: "CreditsGranted",
      data: { customerId: "cus_a", amount: 350, reason: "monthly", period: "2026-12", planCode: "free" },
    },
  ]);
  expect(monthly(1500, true)[0]!.data.amount).toBe(0);
  const added = monthly(650, false);
  expect(added[0]!.data.amount).toBe(1000);
  const after = evolve({ balance: 650 }, added[0]!);
  expect(after.balance).toBe(1650);
  expect(monthly(after.balance, false, after.grantedPeriods)).toEqual([]);
  // Another plan in the same month is another grant; the signup grant's period counts as granted for its plan.
  expect(monthly(after.balance, true, after.grantedPeriods)).toHaveLength(1);
  const signup = evolve(
    { balance: 0 },
    {
      type: "CreditsGranted",
      data: { customerId: "cus_a", amount: 1000, reason: "signup", period: "2026-12", planCode: "free" },
    },
  );
  expect(monthly(signup.balance, true, signup.grantedPeriods)).toEqual([]);
});

test("an operator deduction never takes the balance below zero: INSUFFICIENT_CREDITS and no event", () => {
  expect(decide({ kind: "deduct", customerId: "cus_a", amount: 5, note: "correction" }, { balance: 5 })).toEqual([
    { type: "CreditsDeducted", data: { customerId: "cus_a", amount: 5, reason: "operator", note: "correction" } },
  ]);
  expect(() => decide({ kind: "deduct", customerId: "cus_a", amount: 6, note: "correction" }, { balance: 5 })).toThrow(
    expect.objectContaining({ code: "INSUFFICIENT_CREDITS", details: { balance: 5, required: 6, shortfall: 1 } }),
  );
});
