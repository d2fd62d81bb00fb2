import Stripe from "stripe";
import {
  BillingProviderError,
  type BillingAgreement,
  type BillingOrganization,
  type BillingProvider,
  type Provisioned,
} from "./provider";

/** Where an organization's Stripe customer names it, and where a product names its plan and credits. */
export const STRIPE_METADATA = {
  customerId: "assay_customer_id",
  plan: "assay_plan",
  monthlyCredits: "assay_monthly_credits",
} as const;

/** The subscription statuses that are a live agreement; any other (canceled, unpaid, incomplete...) is none. */
const LIVE = new Set(["active", "trialing"]);

/**
 * Billing through Stripe: a customer per organization (metadata assay_customer_id), its active or trialing
 * subscription as the live agreement, and that subscription's price's product naming the plan
 * (metadata assay_plan) and its credits a month (metadata assay_monthly_credits).
 */
export class StripeBillingProvider implements BillingProvider {
  readonly name = "stripe";
  readonly remote = true;
  private readonly client: Stripe | null;

  constructor(private readonly settings: { secretKey?: string; apiBase?: string; freePrice?: string }) {
    this.client = settings.secretKey ? new Stripe(settings.secretKey, clientOptions(settings.apiBase)) : null;
  }

  async agreement(org: BillingOrganization): Promise<BillingAgreement> {
    const stripe = this.configured();
    return call(async () => {
      const customer = org.billingCustomerId
        ? await linkedCustomer(stripe, org.billingCustomerId)
        : await searchCustomer(stripe, org.customerId);
      if (!customer) {
        throw new BillingProviderError(
          "not_provisioned",
          org.billingCustomerId
            ? `Stripe customer ${org.billingCustomerId}, linked to organization ${org.customerId}, is deleted.`
            : `Organization ${org.customerId} has no Stripe customer.`,
        );
      }
      const subscription = await liveSubscription(stripe, customer.id);
      if (!subscription)
        throw new BillingProviderError("not_provisioned", `Stripe customer ${customer.id} has no active subscription.`);
      const price = subscription.items.data[0]?.price;
      if (!price)
        throw new BillingProviderError("not_provisioned", `Stripe subscription ${subscription.id} has no price.`);
      const product = typeof price.product === "string" ? await stripe.products.retrieve(price.product) : price.product;
      const metadata = "metadata" in product ? product.metadata : {};
      return {
        planCode: metadata[STRIPE_METADATA.plan] ?? "",
        monthlyCredits: creditsOf(metadata[STRIPE_METADATA.monthlyCredits]),
      };
    });
  }

  async provision(org: Omit<BillingOrganization, "planCode">): Promise<Provisioned> {
    const stripe = this.configured();
    return call(async () => {
      const done: string[] = [];
      const linked = org.billingCustomerId ? await linkedCustomer(stripe, org.billingCustomerId) : null;
      if (org.billingCustomerId && !linked) done.push(`linked Stripe customer ${org.billingCustomerId} is deleted`);
      let customer = linked ?? (await searchCustomer(stripe, org.customerId));
      if (!customer) {
        customer = await stripe.customers.create(
          { email: org.email, metadata: { [STRIPE_METADATA.customerId]: org.customerId } },
          // Two provisioning attempts for one organization make one customer; replacing a deleted customer is another attempt.
          {
            idempotencyKey: `assay-customer-${org.customerId}${org.billingCustomerId ? `-replacing-${org.billingCustomerId}` : ""}`,
          },
        );
        done.push(`created Stripe customer ${customer.id}`);
      } else done.push(`Stripe customer ${customer.id} exists`);
      const live = await liveSubscription(stripe, customer.id);
      if (live) done.push(`subscription ${live.id} is ${live.status}`);
      else if (this.settings.freePrice) {
        const created = await stripe.subscriptions.create({
          customer: customer.id,
          items: [{ price: this.settings.freePrice }],
        });
        done.push(`subscribed to the free price ${this.settings.freePrice} (${created.id})`);
      } else done.push("no live subscription, and no ASSAY_STRIPE_FREE_PRICE to subscribe it to");
      return { summary: `${org.customerId}: ${done.join("; ")}.`, billingCustomerId: customer.id };
    });
  }

  private configured(): Stripe {
    if (!this.client)
      throw new BillingProviderError(
        "unconfigured",
        "ASSAY_BILLING_PROVIDER=stripe, but ASSAY_STRIPE_SECRET_KEY is not set.",
      );
    return this.client;
  }
}

/** The customer provisioning linked, by id (always current); null when Stripe says it is deleted or has no such customer. */
async function linkedCustomer(stripe: Stripe, id: string): Promise<Stripe.Customer | null> {
  try {
    const customer = await stripe.customers.retrieve(id);
    return customer.deleted ? null : customer;
  } catch (e) {
    if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === "resource_missing") return null;
    throw e;
  }
}

/**
 * The organization's customer found by its metadata, for an organization provisioning never linked (set up outside
 * Assay, or before links were recorded). Stripe's search lags behind writes (up to a minute), so a customer created
 * moments ago is not found here.
 */
async function searchCustomer(stripe: Stripe, customerId: string): Promise<Stripe.Customer | null> {
  const found = await stripe.customers.search({
    query: `metadata['${STRIPE_METADATA.customerId}']:'${customerId}'`,
    limit: 1,
  });
  return found.data[0] ?? null;
}

function clientOptions(apiBase?: string): Stripe.StripeConfig {
  // One attempt: PlanService serves a recent resolution through an outage, so retries would only slow the refusal.
  const options: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: 10_000, telemetry: false };
  if (!apiBase) return options;
  const url = new URL(apiBase);
  return {
    ...options,
    host: url.hostname,
    port: url.port || (url.protocol === "http:" ? 80 : 443),
    protocol: url.protocol === "http:" ? "http" : "https",
  };
}

async function liveSubscription(stripe: Stripe, customer: string): Promise<Stripe.Subscription | null> {
  const subscriptions = await stripe.subscriptions.list({ customer, status: "all", limit: 100 });
  return subscriptions.data.find((s) => LIVE.has(s.status)) ?? null;
}

/** A product's credits a month: a whole number, or null when absent or not a number (not a usable entitlement). */
function creditsOf(value: string | undefined): number | null {
  if (value === undefined || !/^-?\d+$/.test(value.trim())) return null;
  return Number(value);
}

/** Stripe's failures by kind: cannot reach it or it failed (unreachable), our key refused (unconfigured); anything else is a bug. */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof Stripe.errors.StripeError)) throw e;
    if (e.type === "StripeAuthenticationError" || e.type === "StripePermissionError") {
      throw new BillingProviderError("unconfigured", `Stripe refused the configured secret key: ${e.message}`);
    }
    if (
      e.type === "StripeConnectionError" ||
      e.type === "StripeAPIError" ||
      e.type === "StripeRateLimitError" ||
      (e.statusCode ?? 0) >= 500
    ) {
      throw new BillingProviderError("unreachable", `Stripe could not be reached: ${e.message}`);
    }
    throw e;
  }
}
