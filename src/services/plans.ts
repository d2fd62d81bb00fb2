import { AppError } from "../errors/app-error";
import { FREE_PLAN_CODE, UNLIMITED_SENTINEL, type Plan, type PlanCatalog } from "../catalog/plans";
import { findOrganization } from "../../projections/organizations";
import { BillingProviderError, type BillingAgreement, type BillingProvider } from "./billing/provider";
import type { Config } from "../config";
import type { ErrorCode } from "../errors/catalog";
import type { EventStore } from "../store/event-store";

/** What resolving a plan may answer: every operation that resolves one lists these. */
export const PLAN_RESOLUTION_ERRORS: ErrorCode[] = ["BILLING_NOT_PROVISIONED", "BILLING_PROVIDER_UNREACHABLE", "PLAN_NOT_PUBLISHED", "SERVICE_UNAVAILABLE"];

/** An organization's plan as resolved for one request: the catalog plan, its usable monthly credits, and which provider said so. */
export interface ResolvedPlan {
  plan: Plan;
  monthlyCredits: number;
  /** The billing provider's name ("local" for the plan the log records). */
  source: string;
}

/**
 * Resolves an organization's plan: the provider's agreement, then the catalog plan it names, then a usable
 * credits entitlement. Every plan-dependent request goes through `resolve`, so every refusal here comes before
 * work and before any credit moves.
 *
 * A remote provider's agreement is kept per organization: reused for planFreshSeconds without asking (keeps
 * the provider off the hot path), and while the provider is unreachable served up to planStaleSeconds old
 * (spec §8.7); only answers are kept, never refusals, so a provisioned organization resolves on its next request.
 */
export class PlanService {
  private readonly agreements = new Map<string, { agreement: BillingAgreement; at: number }>();

  constructor(
    // Not a ServiceContext: the context carries this service, so naming it here would import in a circle.
    private readonly ctx: { config: Config; store: EventStore },
    readonly catalog: PlanCatalog,
    private readonly provider: BillingProvider,
  ) {}

  async resolve(customerId: string): Promise<ResolvedPlan> {
    const org = findOrganization(this.ctx.store.db, customerId);
    if (!org) throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, { customerId });
    const agreement = await this.agreement({ customerId, email: org.email, planCode: org.plan });
    const plan = this.catalog.find(agreement.planCode);
    if (!plan) {
      throw new AppError("PLAN_NOT_PUBLISHED", `Plan ${JSON.stringify(agreement.planCode)} is not in the plan catalog.`, {
        planCode: agreement.planCode,
        provider: this.provider.name,
      });
    }
    if (plan.code === FREE_PLAN_CODE) return { plan, monthlyCredits: this.ctx.config.monthlyFreeCredits, source: this.provider.name };
    const monthlyCredits = agreement.monthlyCredits === undefined ? plan.monthlyCredits : agreement.monthlyCredits;
    if (monthlyCredits === undefined || monthlyCredits === null || monthlyCredits <= 0 || (plan.paid && monthlyCredits === UNLIMITED_SENTINEL)) {
      throw new AppError("PLAN_NOT_PUBLISHED", `Plan ${plan.code} has no usable monthly credits entitlement.`, {
        planCode: plan.code,
        monthlyCredits: monthlyCredits ?? null,
        provider: this.provider.name,
      });
    }
    return { plan, monthlyCredits, source: this.provider.name };
  }

  /** Sets an organization up with the billing provider (the operator's `assay billing provision`); what was done, in words. */
  async provision(customerId: string): Promise<string> {
    const org = findOrganization(this.ctx.store.db, customerId);
    if (!org) throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, { customerId });
    try {
      return await this.provider.provision({ customerId, email: org.email });
    } catch (e) {
      throw providerRefusal(e, this.provider.name);
    }
  }

  /**
   * Provisions an organization that just opened. A failure does not undo the opening: it is logged, and the
   * organization's plan-dependent requests answer BILLING_NOT_PROVISIONED until the operator provisions it.
   */
  async provisionOpened(customerId: string): Promise<void> {
    if (!this.provider.remote) return;
    try {
      await this.provision(customerId);
    } catch (e) {
      console.error(`Billing: organization ${customerId} opened but was not provisioned with ${this.provider.name} (\`assay billing provision --customer ${customerId}\` retries): ${(e as Error).message}`);
    }
  }

  private async agreement(org: { customerId: string; email: string; planCode: string }): Promise<BillingAgreement> {
    const kept = this.agreements.get(org.customerId);
    const age = kept ? (Date.now() - kept.at) / 1000 : Infinity;
    if (kept && age < this.ctx.config.planFreshSeconds) return kept.agreement;
    try {
      const agreement = await this.provider.agreement(org);
      if (this.provider.remote) this.agreements.set(org.customerId, { agreement, at: Date.now() });
      return agreement;
    } catch (e) {
      if (kept && age <= this.ctx.config.planStaleSeconds && e instanceof BillingProviderError && e.kind === "unreachable") return kept.agreement;
      throw providerRefusal(e, this.provider.name, {
        staleLimitSeconds: this.ctx.config.planStaleSeconds,
        lastResolvedSecondsAgo: kept ? Math.floor(age) : null,
      });
    }
  }
}

/** The catalogued refusal for a provider's failure; an outage says how old the kept resolution was (null: none) and the limit. */
function providerRefusal(e: unknown, provider: string, outage?: { staleLimitSeconds: number; lastResolvedSecondsAgo: number | null }): AppError {
  if (!(e instanceof BillingProviderError)) throw e;
  switch (e.kind) {
    case "not_provisioned":
      return new AppError("BILLING_NOT_PROVISIONED", e.message, { provider });
    case "unreachable":
      return new AppError("BILLING_PROVIDER_UNREACHABLE", e.message, { provider, ...outage }, undefined, true);
    case "unconfigured":
      return new AppError("SERVICE_UNAVAILABLE", e.message, { dependency: "billing provider", provider }, undefined, true);
  }
}
