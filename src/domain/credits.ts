import { AppError } from "../errors/app-error";
import {
  creditDelta,
  type CreditEvent,
  type CreditsChargedData,
  type CreditsDeductedData,
  type CreditsGrantedData,
  type CreditsRefundedData,
} from "../../events";

/** The credit ledger as a decider: decide(command, state) -> events; evolve(state, event) -> state. */

export interface CreditLedgerState {
  balance: number;
  /** A charge already recorded for the job this command is about, under any tenant. */
  existingCharge?: { customerId: string; amount: number } | null;
  /** The periods a signup or monthly grant already covers, each with its plan (`periodKey`). */
  grantedPeriods?: ReadonlySet<string>;
}

/** A grant period (UTC calendar month) and the plan it was granted under: a monthly grant happens once per key. */
export const periodKey = (period: string, planCode: string) => `${period}/${planCode}`;

/** The UTC calendar month of an instant, `YYYY-MM`: the period a monthly grant covers. */
export const periodOf = (at: Date) => at.toISOString().slice(0, 7);

export type CreditCommand =
  | ({ kind: "grant" } & CreditsGrantedData)
  | ({ kind: "charge" } & Pick<CreditsChargedData, "customerId" | "jobId" | "lines">)
  | ({ kind: "refund" } & Pick<CreditsRefundedData, "customerId" | "jobId" | "lines">)
  /** The period's monthly credits under a plan: `topUp` raises the balance to the amount (unpaid plans), otherwise the amount is added. */
  | { kind: "monthly"; customerId: string; period: string; planCode: string; monthlyCredits: number; topUp: boolean }
  | ({ kind: "deduct" } & Pick<CreditsDeductedData, "customerId" | "amount" | "note">);

export function evolve(state: CreditLedgerState, e: CreditEvent): CreditLedgerState {
  const next = { ...state, balance: state.balance + creditDelta(e) };
  if (e.type === "CreditsGranted" && e.data.period && e.data.planCode) {
    next.grantedPeriods = new Set([...(state.grantedPeriods ?? []), periodKey(e.data.period, e.data.planCode)]);
  }
  return next;
}

/**
 * Refuses an amount, or a balance it would leave, that a number cannot hold exactly: past 2^53 - 1 a grant would
 * silently lose credits, and nothing after could tell.
 */
function requireExact(amount: number, balance: number, balanceAfter: number): void {
  if (Number.isSafeInteger(amount) && amount >= 0 && Number.isSafeInteger(balanceAfter)) return;
  throw new AppError(
    "CREDIT_AMOUNT_OUT_OF_RANGE",
    `Moving ${amount} credits on a balance of ${balance} leaves more than the ledger counts exactly; nothing was moved.`,
    {
      amount,
      balance,
      max: Number.MAX_SAFE_INTEGER,
    },
  );
}

export function decide(cmd: CreditCommand, state: CreditLedgerState): CreditEvent[] {
  const events = decideMove(cmd, state);
  for (const e of events) requireExact(e.data.amount, state.balance, state.balance + creditDelta(e));
  return events;
}

function decideMove(cmd: CreditCommand, state: CreditLedgerState): CreditEvent[] {
  switch (cmd.kind) {
    case "grant": {
      const { kind: _kind, ...data } = cmd;
      return [{ type: "CreditsGranted", data }];
    }
    case "charge": {
      const amount = cmd.lines.reduce((n, l) => n + l.credits, 0);
      const prior = state.existingCharge;
      if (prior) {
        throw new AppError(
          "JOB_CHARGE_CONFLICT",
          `A charge for job ${cmd.jobId} already exists; nothing was charged.`,
          {
            jobId: cmd.jobId,
            sameTenant: prior.customerId === cmd.customerId,
            sameAmount: prior.amount === amount,
          },
        );
      }
      if (amount > state.balance) {
        throw new AppError(
          "INSUFFICIENT_CREDITS",
          `This job costs ${amount} credits and the balance is ${state.balance}; nothing was charged.`,
          { balance: state.balance, required: amount, shortfall: amount - state.balance },
        );
      }
      return [
        { type: "CreditsCharged", data: { customerId: cmd.customerId, jobId: cmd.jobId, amount, lines: cmd.lines } },
      ];
    }
    case "monthly": {
      // A second grant for the same period and plan is no grant: the monthly grant is idempotent.
      if (state.grantedPeriods?.has(periodKey(cmd.period, cmd.planCode))) return [];
      const amount = cmd.topUp ? Math.max(0, cmd.monthlyCredits - state.balance) : cmd.monthlyCredits;
      return [
        {
          type: "CreditsGranted",
          data: { customerId: cmd.customerId, amount, reason: "monthly", period: cmd.period, planCode: cmd.planCode },
        },
      ];
    }
    case "deduct": {
      if (cmd.amount > state.balance) {
        throw new AppError(
          "INSUFFICIENT_CREDITS",
          `Cannot deduct ${cmd.amount} credits from a balance of ${state.balance}: a balance never goes below zero; nothing was deducted.`,
          {
            balance: state.balance,
            required: cmd.amount,
            shortfall: cmd.amount - state.balance,
          },
        );
      }
      return [
        {
          type: "CreditsDeducted",
          data: { customerId: cmd.customerId, amount: cmd.amount, reason: "operator", note: cmd.note },
        },
      ];
    }
    case "refund": {
      const lines = cmd.lines.filter((l) => l.credits > 0);
      const amount = lines.reduce((n, l) => n + l.credits, 0);
      return amount > 0
        ? [{ type: "CreditsRefunded", data: { customerId: cmd.customerId, jobId: cmd.jobId, amount, lines } }]
        : [];
    }
  }
}
