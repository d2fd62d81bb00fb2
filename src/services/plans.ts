import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import { grantClock, type Config } from "../config";
import { FREE_PLAN_CODE, UNLIMITED_SENTINEL, type Plan, type PlanCatalog } from "../catalog/plans";
import { decideChangePlan, decideLinkBillingCustomer, streams } from "../domain/accounts";
import { decide as decideCredits, periodOf } from "../domain/credits";
import { requireAdmin } from "../domain/people";
import { ConcurrencyError, type EventLog } from "../store/event-log";
import { allCustomerIds, findOrganization, type Organization } from "../../projections/organizations";
import { creditState, grantedPeriods } from "../../projections/credits";
import type { ReadModels } from "../../projections/projection";
import {
  BillingProviderError,
  type BillingAgreement,
  type BillingOrganization,
  type BillingProvider,
} from "./billing/provider";
import type { EventMetadata } from "../../events/metadata";

/** An organization's plan as resolved for one request: the catalog plan, its usable monthly credits, and which provider said so. */
export interface ResolvedPlan {
  plan: Plan;
  monthlyCredits: number;
  /** The billing provider's name ("local" for the plan the log records). */
  source: string;
}

/** Whether an organization's plan-dependent requests are answered now (PlanService.standing). */
export interface BillingStanding {
  provider: string;
  ready: boolean;
  plan: string | null;
  code: ErrorCode | null;
  message: string;
}

/** The monthly grant is the system's doing, whichever request or sweep brings it about. */
const SYSTEM: EventMetadata = { actor: { kind: "system" }, channel: "system" };

/** Re-decisions a monthly grant makes when another request appended to the credit stream first. */
const GRANT_ATTEMPTS = 5;

/**
 * Resolves an organization's plan: the provider's agreement, then the catalog plan it names, then a usable
 * credits entitlement. Every plan-dependent request goes through `resolve` (or `entitle`, which also grants the
 * period's monthly credits), so every refusal here comes before work and before any credit moves.
 *
 * A remote provider's agreement is kept per organization: reused for planFreshSeconds without asking (keeps
 * the provider off the hot path), and while the provider is unreachable served up to planStaleSeconds old
 * (spec §8.7); only answers are kept, never refusals, so a provisioned organization resolves on its next request.
 */
export class PlanService {
  private readonly agreements = new Map<string, { agreement: BillingAgreement; at: number }>();

  constructor(
    // Not a ServiceContext: the context carries this service, so naming it here would import in a circle.
    private readonly ctx: { config: Config; log: EventLog; readModels: ReadModels },
    readonly catalog: PlanCatalog,
    private readonly provider: BillingProvider,
  ) {}

  /** The organization's plan now; `keep: false` keeps the provider's answer out of the reuse cache (a look that must not pin it). */
  async resolve(customerId: string, { keep = true }: { keep?: boolean } = {}): Promise<ResolvedPlan> {
    const org = findOrganization(this.ctx.readModels, customerId);
    if (!org)
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, {
        customerId,
      });
    const agreement = await this.agreement(
      { customerId, email: org.email, planCode: org.plan, billingCustomerId: this.linkOf(org) },
      keep,
    );
    const plan = this.catalog.find(agreement.planCode);
    if (!plan) {
      throw new AppError(
        "PLAN_NOT_PUBLISHED",
        `Plan ${JSON.stringify(agreement.planCode)} is not in the plan catalog.`,
        {
          planCode: agreement.planCode,
          provider: this.provider.name,
        },
      );
    }
    if (plan.code === FREE_PLAN_CODE)
      return { plan, monthlyCredits: this.ctx.config.monthlyFreeCredits, source: this.provider.name };
    const monthlyCredits = agreement.monthlyCredits === undefined ? plan.monthlyCredits : agreement.monthlyCredits;
    if (
      monthlyCredits === undefined ||
      monthlyCredits === null ||
      monthlyCredits <= 0 ||
      (plan.paid && monthlyCredits === UNLIMITED_SENTINEL)
    ) {
      throw new AppError("PLAN_NOT_PUBLISHED", `Plan ${plan.code} has no usable monthly credits entitlement.`, {
        planCode: plan.code,
        monthlyCredits: monthlyCredits ?? null,
        provider: this.provider.name,
      });
    }
    return { plan, monthlyCredits, source: this.provider.name };
  }

  /**
   * Whether an organization's plan-dependent requests (jobs, estimates, credits, the organization) are answered now:
   * the plan they are answered under, or the refusal they get instead (resolve's own, so the two cannot disagree)
   * and what to do about it. What signup reports with the key it hands out; the answer is not kept, so a
   * subscription changed a moment later shows on the organization's next request.
   */
  async standing(customerId: string): Promise<BillingStanding> {
    const provider = this.provider.name;
    try {
      const { plan } = await this.resolve(customerId, { keep: false });
      return {
        provider,
        ready: true,
        plan: plan.code,
        code: null,
        message: `Jobs, estimates and credits are answered under plan ${plan.code}.`,
      };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return {
        provider,
        ready: false,
        plan: null,
        code: e.code,
        message:
          `${e.message} Until billing is set up, this organization's jobs, estimates, GET /api/credits and GET /api/org answer ${e.code}. ` +
          `Keep the key (it works once billing is set up) and ask this server's operator to set up organization ${customerId} with ${provider} ` +
          `(docs/plans-and-billing.md, "Billing providers"; then \`assay billing provision --customer ${customerId}\`).`,
      };
    }
  }

  /**
   * The plan, after granting the current period's monthly credits if they are not yet granted: what a request
   * that depends on the plan or reads the balance calls first.
   */
  async entitle(customerId: string): Promise<ResolvedPlan> {
    const resolved = await this.resolve(customerId);
    await this.grantMonthly(customerId, resolved);
    return resolved;
  }

  /**
   * Once per organization, period and plan: an unpaid plan tops the balance up to its monthly amount (a grant of
   * the difference, 0 included, which still closes the period); a paid plan adds its entitlement. Decided on the
   * credit stream's state and appended with its version, so a request that appended first makes this one re-decide
   * (and find the period granted).
   */
  private async grantMonthly(customerId: string, { plan, monthlyCredits }: ResolvedPlan): Promise<void> {
    const { log, readModels } = this.ctx;
    const period = periodOf(grantClock(this.ctx.config));
    for (let attempt = 1; ; attempt++) {
      const { balance, streamVersion } = creditState(readModels, customerId);
      const events = decideCredits(
        { kind: "monthly", customerId, period, planCode: plan.code, monthlyCredits, topUp: !plan.paid },
        { balance, grantedPeriods: grantedPeriods(readModels, customerId) },
      );
      if (!events.length) return;
      try {
        await log.append([{ streamId: streams.credits(customerId), expectedVersion: streamVersion, events }], SYSTEM);
        return;
      } catch (e) {
        if (!(e instanceof ConcurrencyError) || attempt === GRANT_ATTEMPTS) throw e;
      }
    }
  }

  /** Grants the current period to every organization (at start and periodically); one organization's refusal does not stop the rest. */
  async sweep(): Promise<{ organizations: number; refused: number }> {
    const ids = allCustomerIds(this.ctx.readModels);
    let refused = 0;
    for (const customerId of ids) {
      try {
        await this.entitle(customerId);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        refused++;
      }
    }
    return { organizations: ids.length, refused };
  }

  /**
   * The plan catalog as an organization may choose from it, with the plan it is on and whether Assay may change it
   * (not under a remote billing provider); the free plan's credits are the configured amount.
   */
  async list(customerId: string) {
    const { plan } = await this.entitle(customerId);
    return {
      current: plan.code,
      billingProvider: this.provider.name,
      planChangeable: !this.provider.remote,
      plans: this.catalog.plans.map((p) => ({
        code: p.code,
        name: p.name,
        paid: p.paid,
        monthlyCredits: p.code === FREE_PLAN_CODE ? this.ctx.config.monthlyFreeCredits : (p.monthlyCredits ?? null),
        features: p.features,
        mailClients: p.mailClients,
      })),
    };
  }

  /** Moves an organization to another catalog plan (the operator, or an admin through changePlanAs); refused under a remote billing provider. */
  async changePlan(
    customerId: string,
    planCode: string,
    meta: EventMetadata,
  ): Promise<{ customerId: string; plan: string; previousPlan: string }> {
    const org = findOrganization(this.ctx.readModels, customerId);
    if (!org)
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, {
        customerId,
      });
    const managedBy = this.provider.remote ? this.provider.name : null;
    await this.ctx.log.append(
      decideChangePlan(
        customerId,
        planCode,
        org.plan,
        this.catalog.plans.map((p) => p.code),
        managedBy,
      ),
      meta,
    );
    return { customerId, plan: planCode, previousPlan: org.plan };
  }

  /** An admin changing their organization's plan from a session; a member gets ADMIN_REQUIRED. */
  changePlanAs(session: { customerId: string; role: "admin" | "member" }, planCode: string, meta: EventMetadata) {
    requireAdmin(session.role, "change the organization's plan");
    return this.changePlan(session.customerId, planCode, meta);
  }

  /**
   * Sets an organization up with the billing provider (the operator's `assay billing provision`, and signup) and
   * records the customer it created or found (BillingCustomerLinked), so resolving the plan need not find it by a
   * search that may lag; what was done, in words.
   */
  async provision(customerId: string, meta: EventMetadata): Promise<string> {
    const org = findOrganization(this.ctx.readModels, customerId);
    if (!org)
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, {
        customerId,
      });
    let provisioned: Awaited<ReturnType<typeof this.provider.provision>>;
    try {
      provisioned = await this.provider.provision({
        customerId,
        email: org.email,
        billingCustomerId: this.linkOf(org),
      });
    } catch (e) {
      throw providerRefusal(e, this.provider.name);
    }
    if (provisioned.billingCustomerId) {
      const link = { provider: this.provider.name, billingCustomerId: provisioned.billingCustomerId };
      await this.ctx.log.append(
        decideLinkBillingCustomer(customerId, link, {
          provider: org.billingProvider,
          billingCustomerId: org.billingCustomerId,
        }),
        meta,
      );
    }
    return provisioned.summary;
  }

  /**
   * Provisions an organization that just opened. A failure does not undo the opening: it is logged, and the
   * organization's plan-dependent requests answer BILLING_NOT_PROVISIONED until the operator provisions it.
   */
  async provisionOpened(customerId: string): Promise<void> {
    if (!this.provider.remote) return;
    try {
      await this.provision(customerId, SYSTEM);
    } catch (e) {
      console.error(
        `Billing: organization ${customerId} opened but was not provisioned with ${this.provider.name} (\`assay billing provision --customer ${customerId}\` retries): ${(e as Error).message}`,
      );
    }
  }

  /** The organization's customer with this server's provider, if provisioning linked one (a link with another provider is not this one's). */
  private linkOf(org: Organization): string | null {
    return org.billingProvider === this.provider.name ? org.billingCustomerId : null;
  }

  private async agreement(org: BillingOrganization, keep: boolean): Promise<BillingAgreement> {
    const kept = this.agreements.get(org.customerId);
    const age = kept ? (Date.now() - kept.at) / 1000 : Infinity;
    if (kept && age < this.ctx.config.planFreshSeconds) return kept.agreement;
    try {
      const agreement = await this.provider.agreement(org);
      if (this.provider.remote && keep) this.agreements.set(org.customerId, { agreement, at: Date.now() });
      return agreement;
    } catch (e) {
      if (
        kept &&
        age <= this.ctx.config.planStaleSeconds &&
        e instanceof BillingProviderError &&
        e.kind === "unreachable"
      )
        return kept.agreement;
      throw providerRefusal(e, this.provider.name, {
        staleLimitSeconds: this.ctx.config.planStaleSeconds,
        lastResolvedSecondsAgo: kept ? Math.floor(age) : null,
      });
    }
  }
}

/** The catalogued refusal for a provider's failure; an outage says how old the kept resolution was (null: none) and the limit. */
function providerRefusal(
  e: unknown,
  provider: string,
  outage?: { staleLimitSeconds: number; lastResolvedSecondsAgo: number | null },
): AppError {
  if (!(e instanceof BillingProviderError)) throw e;
  switch (e.kind) {
    case "not_provisioned":
      return new AppError("BILLING_NOT_PROVISIONED", e.message, { provider });
    case "unreachable":
      return new AppError("BILLING_PROVIDER_UNREACHABLE", e.message, { provider, ...outage }, undefined, true);
    case "unconfigured":
      return new AppError(
        "SERVICE_UNAVAILABLE",
        e.message,
        { dependency: "billing provider", provider },
        undefined,
        true,
      );
  }
}
