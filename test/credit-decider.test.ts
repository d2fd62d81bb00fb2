import { expect, test } from "bun:test";
import { decide, evolve } from "../src/domain/credits";
import { AppError } from "../src/errors/app-error";

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
    expect((thrown as AppError).details).toMatchObject({ jobId: "job_1", sameTenant: existingCharge.customerId === "cus_a", sameAmount: existingCharge.amount === 1 });
  }
});

test("a first charge decides one CreditsCharged that folds the balance down; a refund folds it back", () => {
  const charged = decide({ kind: "charge", customerId: "cus_a", jobId: "job_1", lines }, { balance: 3, existingCharge: null });
  expect(charged).toEqual([{ type: "CreditsCharged", data: { customerId: "cus_a", jobId: "job_1", amount: 1, lines } }]);
  const after = evolve({ balance: 3 }, charged[0]!);
  expect(after.balance).toBe(2);
  const refunded = decide({ kind: "refund", customerId: "cus_a", jobId: "job_1", lines: [{ ...lines[0]!, reason: "error row" }] }, after);
  expect(evolve(after, refunded[0]!).balance).toBe(3);
});
