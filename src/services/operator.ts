import { userInfo } from "node:os";
import { AppError } from "../errors/app-error";
import type { Scope } from "../domain/accounts";
import { rebuildProjections } from "../../projections";
import { verifyLedger } from "./audit";
import { feedbackReport } from "./feedback";
import { decide as decideCredits, type CreditCommand } from "../domain/credits";
import { streams } from "../domain/accounts";
import { creditState } from "../../projections/credits";
import { findOrganization } from "../../projections/organizations";
import type { AccountService } from "./accounts";
import type { RequestMeta, ServiceContext } from "./context";

/** The operator at this machine's shell: events they cause name them (their login) as the actor. */
const OPERATOR: RequestMeta = { actor: { kind: "operator", id: operatorName() }, channel: "cli" };

function operatorName(): string {
  try {
    return userInfo().username || "operator";
  } catch {
    return "operator";
  }
}

/** What the operator runs on this server's data directory (`assay replay | ledger verify | key mint | key revoke | credits grant | credits deduct | plan set | billing provision`). */
export class OperatorService {
  constructor(
    private readonly ctx: Pick<ServiceContext, "log" | "readModels" | "plans">,
    private readonly accounts: AccountService,
  ) {}

  /**
   * Drops every read table and rebuilds them from the event log. On PostgreSQL, this node's replica of the shared
   * log is brought to its head first, then its read models rebuilt.
   */
  replay(): Promise<{ events: number }> {
    return this.ctx.log.rebuildReadModels(rebuildProjections);
  }

  verifyLedger(customerId?: string) {
    return verifyLedger(this.ctx.log, this.ctx.readModels, customerId);
  }

  /** Looks-wrong feedback per check since an ISO date: counts, disputes by direction, the notes newest first. */
  feedbackReport(since?: string) {
    return feedbackReport(this.ctx.readModels, since);
  }

  mintKey(customerId: string, name: string, scopes: Scope[]) {
    return this.accounts.mintKey(customerId, name, scopes, OPERATOR);
  }

  /** Revokes a key by id alone, for the self-hoster with no session: its organization is the one that holds it. */
  async revokeKey(keyId: string): Promise<{ keyId: string; customerId: string }> {
    const customerId = this.accounts.organizationOfKey(keyId);
    if (!customerId) throw new AppError("STORAGE_OBJECT_NOT_FOUND", `No key ${keyId} on this server.`, { keyId });
    await this.accounts.revokeKey(customerId, keyId, OPERATOR);
    return { keyId, customerId };
  }

  /** Grants credits with the operator's note (CreditsGranted, reason operator). */
  grantCredits(customerId: string, amount: number, note: string) {
    return this.moveCredits(customerId, { kind: "grant", customerId, amount, reason: "operator", note });
  }

  /** Takes credits back with the operator's note (CreditsDeducted); never below zero (INSUFFICIENT_CREDITS, nothing deducted). */
  deductCredits(customerId: string, amount: number, note: string) {
    return this.moveCredits(customerId, { kind: "deduct", customerId, amount, note });
  }

  /** Moves an organization to another plan of the catalog (PlanChanged, the operator as actor). */
  setPlan(customerId: string, planCode: string) {
    return this.ctx.plans.changePlan(customerId, planCode, OPERATOR);
  }

  /** Sets an organization up with the billing provider and links the customer it created or found (the operator as actor). */
  provisionBilling(customerId: string): Promise<string> {
    return this.ctx.plans.provision(customerId, OPERATOR);
  }

  private async moveCredits(customerId: string, cmd: CreditCommand): Promise<{ customerId: string; balance: number }> {
    const { log, readModels } = this.ctx;
    if (!findOrganization(readModels, customerId))
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${customerId}.`, { customerId });
    const { balance, streamVersion } = creditState(readModels, customerId);
    await log.append(
      [
        {
          streamId: streams.credits(customerId),
          expectedVersion: streamVersion,
          events: decideCredits(cmd, { balance }),
        },
      ],
      OPERATOR,
    );
    return { customerId, balance: creditState(readModels, customerId).balance };
  }
}
