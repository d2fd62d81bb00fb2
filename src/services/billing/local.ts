import type { PlanCatalog } from "../../catalog/plans";
import type { BillingAgreement, BillingProvider, Provisioned } from "./provider";

/** The self-hoster's billing: the plan the log records for the organization, with the catalog's monthly credits. */
export class LocalBillingProvider implements BillingProvider {
  readonly name = "local";
  // Reading the log is cheap and always current (a plan change shows at once), so nothing is cached.
  readonly remote = false;

  constructor(private readonly catalog: PlanCatalog) {}

  async agreement(org: { planCode: string }): Promise<BillingAgreement> {
    return { planCode: org.planCode, monthlyCredits: this.catalog.find(org.planCode)?.monthlyCredits ?? null };
  }

  async provision(): Promise<Provisioned> {
    return { summary: "The local provider needs no provisioning: the plan is the one the log records." };
  }
}
