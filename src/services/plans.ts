import { AppError } from "../errors/app-error";
import { FREE_PLAN_CODE, UNLIMITED_SENTINEL, type Plan, type PlanCatalog } from "../catalog/plans";
import { findOrganization } from "../../projections/organizations";
import { BillingProviderError, type BillingProvider } from "./billing/provider";
import type { Config } from "../config";
import type { EventStore } from "../store/event-store";

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
 */
export class PlanService {
  constructor(
    // Not a ServiceContext: the context carries this service, so naming it here would import in a circle.
    private readonly ctx: { config: Config; store: EventStore },
    readonly catalog: PlanCatalog,
    private readonly provider: BillingProvider,
  ) {}

  async resolve(customerId: string): Promise<ResolvedPlan> {
    const org = findOrganization(this.ctx.store.db, customerId);
    if (!org) throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, { customerId });
    let agreement;
    try {
      agreement = await this.provider.agreement({ customerId, email: org.email, planCode: org.plan });
    } catch (e) {
      throw providerRefusal(e, this.provider.name);
    }
    const plan = this.catalog.find(agreement.planCode);
    if (!plan) {
      throw new AppError("PLAN_NOT_PUBLISHED", `Plan ${JSON.stringify(agreement.planCode)} is not in the plan catalog.`, {
        planCode: agreement.planCode,
        provider: this.provider.name,
      });
    }
    if (plan.code === FREE_PLAN_CODE) return { plan, monthlyCredits: this.ctx.config.monthlyFreeCredits, source: this.provider.name };
    const monthlyCredits = agreement.monthlyCredits ?? plan.monthlyCredits;
    if (monthlyCredits === undefined || monthlyCredits === null || monthlyCredits <= 0 || (plan.paid && monthlyCredits === UNLIMITED_SENTINEL)) {
      throw new AppError("PLAN_NOT_PUBLISHED", `Plan ${plan.code} has no usable monthly credits entitlement.`, {
        planCode: plan.code,
        monthlyCredits: monthlyCredits ?? null,
        provider: this.provider.name,
      });
    }
    return { plan, monthlyCredits, source: this.provider.name };
  }
}

function providerRefusal(e: unknown, provider: string): AppError {
  if (!(e instanceof BillingProviderError)) throw e;
  switch (e.kind) {
    case "not_provisioned":
      return new AppError("BILLING_NOT_PROVISIONED", e.message, { provider });
    case "unreachable":
      return new AppError("BILLING_PROVIDER_UNREACHABLE", e.message, { provider });
    case "unconfigured":
      return new AppError("SERVICE_UNAVAILABLE", e.message, { dependency: `billing provider ${provider}` });
  }
}
