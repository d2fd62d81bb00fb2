/**
 * Where an organization's plan comes from. The local provider reads the plan the log records
 * (./local.ts); another provider asks a billing service. PlanService (../plans.ts) is the one caller.
 */
export interface BillingAgreement {
  planCode: string;
  /** The credits a month the agreement entitles; null or absent means the catalog plan's amount. */
  monthlyCredits?: number | null;
}

export interface BillingProvider {
  readonly name: string;
  agreement(org: { customerId: string; email: string; planCode: string }): Promise<BillingAgreement>;
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
