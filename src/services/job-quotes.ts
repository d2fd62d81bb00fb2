import { planJob } from "../domain/job-request";
import type { PlannedJob } from "../domain/planned-job";
import { priceJob } from "../domain/pricing";
import { gateJob } from "../domain/plan-gate";
import { planIncludesClient, type Plan } from "../catalog/plans";
import { creditState } from "../../projections/credits";
import { skippedView } from "./job-views";
import type { ServiceContext } from "./context";

/** The price of a job body without a customer to charge: what check_job_request answers without a key. */
export interface JobPlanQuote {
  type: PlannedJob["type"];
  validationSetId?: string;
  lines: Array<{ validationId: string; credits: number }>;
  totalCredits: number;
  skipped_validations: Array<ReturnType<typeof skippedView>>;
}

/**
 * A job body planned, gated and priced without running it: the estimate, check_job_request's quote, the mail
 * clients a job may name, and the planned job a run accepts (JobService.run). Nothing here is charged or created.
 */
export class JobQuotes {
  constructor(private readonly ctx: ServiceContext) {}

  /** The price of a body, validated exactly as a run would be; nothing is charged or created. */
  async estimate(customerId: string, body: unknown) {
    const { plan } = await this.ctx.plans.entitle(customerId);
    const { skipped_validations, ...priced } = await this.plan(body, plan);
    const { balance } = creditState(this.ctx.readModels, customerId);
    return {
      ...priced,
      balance,
      sufficient: balance >= priced.totalCredits,
      ...(balance < priced.totalCredits ? { shortfall: priced.totalCredits - balance } : {}),
      skipped_validations,
    };
  }

  /** With an organization, its estimate; without one, the plan's price alone (no balance). Nothing is charged or created. */
  async quote(body: unknown, customerId?: string) {
    return customerId !== undefined
      ? { quote: await this.estimate(customerId, body) }
      : { plan: await this.plan(body) };
  }

  /** A body validated, gated by the organization's plan when there is one, and priced (one priceJob for estimate and run). */
  private async plan(body: unknown, plan?: Plan): Promise<JobPlanQuote> {
    const job = await this.planned(body, plan);
    return {
      type: job.type,
      ...(job.validationSetId ? { validationSetId: job.validationSetId } : {}),
      ...priceJob(job.run, job.captureSizes),
      skipped_validations: job.skipped.map(skippedView),
    };
  }

  /**
   * The planner's table, then the clients this server offers (UNKNOWN_EMAIL_CLIENT, EMAIL_CLIENT_CATALOG_UNAVAILABLE),
   * then the plan's gate: every refusal before pricing.
   */
  async planned(body: unknown, plan?: Plan): Promise<PlannedJob> {
    const planned = await planJob(body, this.ctx.guard);
    this.ctx.emailClients.checkNamedClients(planned.run);
    return plan ? gateJob(planned, plan) : planned;
  }

  /** The mail clients a job may name here (the render catalog as offered), each marked for the organization's plan. */
  async emailClients(customerId: string) {
    const { plan } = await this.ctx.plans.entitle(customerId);
    return this.ctx.emailClients.view(plan, (client) => planIncludesClient(plan, client));
  }
}
