import type { PlanCatalog } from "../../catalog/plans";
import type { BillingAgreement, BillingProvider } from "./provider";

/** The self-hoster's billing: the plan the log records for the organization, with the catalog's monthly credits. */
export class LocalBillingProvider implements BillingProvider {
  readonly name = "local";

  constructor(private readonly catalog: PlanCatalog) {}

  async agreement(org: { planCode: string }): Promise<BillingAgreement> {
    return { planCode: org.planCode, monthlyCredits: this.catalog.find(org.planCode)?.monthlyCredits ?? null };
  }
}
