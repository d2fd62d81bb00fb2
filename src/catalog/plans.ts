import { readFileSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { EmailClient } from "../capture/vocabulary";
import { EMAIL_CLIENTS } from "./email-clients";
import defaultCatalog from "./plans.json" with { type: "json" };

/**
 * The plan catalog: what each plan includes and how many credits it grants a month. The default is
 * ./plans.json, compiled in; ASSAY_PLANS_FILE replaces it with the operator's file. Either is validated when
 * the process starts, so a bad file stops the server with the file and the problem named, never a request.
 */

/** The feature names a plan switches on or off; refusals name them (details.feature, details.missingFeatures). */
export const PLAN_FEATURES = ["website_checks", "email_checks", "custom_parameters", "extra_credit_clients"] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** The plan every new organization opens on; its monthly amount is ASSAY_FREE_MONTHLY_CREDITS, not the file's. */
export const FREE_PLAN_CODE = "free";

/** The "unlimited" sentinel some billing catalogs carry; on a paid plan it is not a usable entitlement. */
export const UNLIMITED_SENTINEL = 2147483647;

const PlanSchema = Type.Object(
  {
    code: Type.String({ pattern: "^[a-z0-9][a-z0-9_-]{0,39}$" }),
    name: Type.String({ minLength: 1 }),
    paid: Type.Boolean(),
    /** Credits a month. May be absent or unusable here: resolving such a plan is PLAN_NOT_PUBLISHED, not a start failure. */
    monthlyCredits: Type.Optional(Type.Integer()),
    features: Type.Object(
      Object.fromEntries(PLAN_FEATURES.map((f) => [f, Type.Boolean()])) as Record<
        PlanFeature,
        ReturnType<typeof Type.Boolean>
      >,
      { additionalProperties: false },
    ),
    /** The mail clients a visual email check may render in: "all", or client ids (a dark variant goes with its client). */
    mailClients: Type.Union([Type.Literal("all"), Type.Array(Type.String())]),
  },
  { additionalProperties: false },
);
const CatalogSchema = Type.Object({ plans: Type.Array(PlanSchema, { minItems: 1 }) }, { additionalProperties: false });

export type Plan = Static<typeof PlanSchema>;

export class PlanCatalog {
  private readonly byCode: Map<string, Plan>;

  constructor(
    readonly plans: readonly Plan[],
    /** Where the catalog came from: the file's path, or "built-in". */
    readonly source: string,
  ) {
    this.byCode = new Map(plans.map((p) => [p.code, p]));
  }

  find(code: string): Plan | undefined {
    return this.byCode.get(code);
  }
}

/** Reads and validates the catalog: the operator's file when named, the compiled-in default otherwise. */
export function loadPlanCatalog(file?: string): PlanCatalog {
  if (!file) return parsePlanCatalog(defaultCatalog, "built-in plan catalog (src/catalog/plans.json)");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`Plan catalog ${file} (ASSAY_PLANS_FILE) cannot be read as JSON: ${(e as Error).message}`);
  }
  return parsePlanCatalog(raw, `plan catalog ${file} (ASSAY_PLANS_FILE)`);
}

function parsePlanCatalog(raw: unknown, label: string): PlanCatalog {
  const problem = firstProblem(raw);
  if (problem) throw new Error(`The ${label} is invalid: ${problem}`);
  const plans = (raw as Static<typeof CatalogSchema>).plans;
  return new PlanCatalog(plans, label);
}

function firstProblem(raw: unknown): string | null {
  const error = Value.Errors(CatalogSchema, raw).First();
  if (error) return `${error.path || "/"}: ${error.message}`;
  const plans = (raw as Static<typeof CatalogSchema>).plans;
  const seen = new Set<string>();
  const knownClients = new Set(Object.values(EMAIL_CLIENTS).flatMap((list) => list.map((c) => c.id)));
  for (const [i, plan] of plans.entries()) {
    if (seen.has(plan.code)) return `/plans/${i}/code: plan code ${JSON.stringify(plan.code)} appears twice`;
    seen.add(plan.code);
    if (plan.mailClients !== "all") {
      const unknown = plan.mailClients.find((id) => !knownClients.has(id));
      if (unknown !== undefined)
        return `/plans/${i}/mailClients: no mail client ${JSON.stringify(unknown)} in the render catalog`;
    }
  }
  if (!seen.has(FREE_PLAN_CODE))
    return `/plans: no plan with code "${FREE_PLAN_CODE}", the plan new organizations open on`;
  return null;
}

/**
 * What a plan lacks for a mail client, as refusals name it (details.missingFeatures): `mail_clients` when its client
 * list leaves the client out, `extra_credit_clients` for an extra-credit client on a plan without them.
 */
export type MissingFeature = PlanFeature | "mail_clients";

export function clientMissingFeatures(
  plan: Plan,
  client: Pick<EmailClient, "id" | "lightVariant" | "extraCredits">,
): MissingFeature[] {
  const missing: MissingFeature[] = [];
  if (plan.mailClients !== "all" && !plan.mailClients.includes(client.lightVariant ?? client.id))
    missing.push("mail_clients");
  if (client.extraCredits && !plan.features.extra_credit_clients) missing.push("extra_credit_clients");
  return missing;
}

/** Whether a plan includes a mail client: listed ("all", or the client's id; a dark variant goes with its light client), and extra-credit only on a plan with them. */
export function planIncludesClient(
  plan: Plan,
  client: Pick<EmailClient, "id" | "lightVariant" | "extraCredits">,
): boolean {
  return clientMissingFeatures(plan, client).length === 0;
}
