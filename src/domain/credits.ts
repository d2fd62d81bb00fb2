import { AppError } from "../errors/app-error";
import { creditDelta, type CreditEvent, type CreditsChargedData, type CreditsGrantedData, type CreditsRefundedData } from "../../events";

/** The credit ledger as a decider: decide(command, state) -> events; evolve(state, event) -> state. */

export interface CreditLedgerState {
  balance: number;
  /** A charge already recorded for the job this command is about, under any tenant. */
  existingCharge?: { customerId: string; amount: number } | null;
}

export type CreditCommand =
  | ({ kind: "grant" } & CreditsGrantedData)
  | ({ kind: "charge" } & Pick<CreditsChargedData, "customerId" | "jobId" | "lines">)
  | ({ kind: "refund" } & Pick<CreditsRefundedData, "customerId" | "jobId" | "lines">);

export function evolve(state: CreditLedgerState, e: CreditEvent): CreditLedgerState {
  return { ...state, balance: state.balance + creditDelta(e) };
}

export function decide(cmd: CreditCommand, state: CreditLedgerState): CreditEvent[] {
  switch (cmd.kind) {
    case "grant": {
      const { kind: _kind, ...data } = cmd;
      return [{ type: "CreditsGranted", data }];
    }
    case "charge": {
      const amount = cmd.lines.reduce((n, l) => n + l.credits, 0);
      const prior = state.existingCharge;
      if (prior) {
        throw new AppError("JOB_CHARGE_CONFLICT", `A charge for job ${cmd.jobId} already exists; nothing was charged.`, {
          jobId: cmd.jobId,
          sameTenant: prior.customerId === cmd.customerId,
          sameAmount: prior.amount === amount,
        });
      }
      if (amount > state.balance) {
        throw new AppError(
          "INSUFFICIENT_CREDITS",
          `This job costs ${amount} credits and the balance is ${state.balance}; nothing was charged.`,
          { balance: state.balance, required: amount, shortfall: amount - state.balance },
        );
      }
      return [{ type: "CreditsCharged", data: { customerId: cmd.customerId, jobId: cmd.jobId, amount, lines: cmd.lines } }];
    }
    case "refund": {
      const lines = cmd.lines.filter((l) => l.credits > 0);
      const amount = lines.reduce((n, l) => n + l.credits, 0);
      return amount > 0 ? [{ type: "CreditsRefunded", data: { customerId: cmd.customerId, jobId: cmd.jobId, amount, lines } }] : [];
    }
  }
}
