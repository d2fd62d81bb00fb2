/**
 * Where an organization's plan comes from. The local provider reads the plan the log records
 * (./local.ts); the Stripe provider asks Stripe (./stripe.ts). PlanService (../plans.ts) is the one caller.
 */
export interface BillingAgreement {
  planCode: string;
  /**
   * The credits a month the agreement entitles. Absent: the catalog plan's amount. null: the agreement names
   * none (the provider's product carries no usable entitlement), which is PLAN_NOT_PUBLISHED on a paid plan.
   */
  monthlyCredits?: number | null;
}

/** An organization as a provider sees it; `billingCustomerId` is its customer with this provider, once provisioning linked one. */
export interface BillingOrganization {
  customerId: string;
  email: string;
  planCode: string;
  billingCustomerId: string | null;
}

/** What provisioning did, in words, and the provider's customer it created or found (to be linked in the log). */
export interface Provisioned {
  summary: string;
  billingCustomerId?: string;
}

export interface BillingProvider {
  readonly name: string;
  /**
   * True when answers come from another service: PlanService then caches them and serves a recent one through an
   * outage, and the plan is the provider's (an admin or the operator cannot change it in Assay).
   */
  readonly remote: boolean;
  agreement(org: BillingOrganization): Promise<BillingAgreement>;
  /** Sets the organization up with the provider (a customer, the free agreement); idempotent. */
  provision(org: Omit<BillingOrganization, "planCode">): Promise<Provisioned>;
}

/** A provider's failure, by kind; PlanService maps each to its catalogued refusal. */
export class BillingProviderError extends Error {
  constructor(
    readonly kind: "not_provisioned" | "unreachable" | "unconfigured",
    message: string,
  ) {
    super(message);
  }
}
