import type { ReadModels } from "./projection";
import type { Projection } from "./projection";

export const organizationsProjection: Projection = {
  name: "organizations",
  tables: ["organizations"],
  ddl: `CREATE TABLE IF NOT EXISTS organizations (
    customer_id TEXT PRIMARY KEY,
    org_code TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL,
    monthly_grant INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    created_position INTEGER NOT NULL,
    billing_provider TEXT,
    billing_customer_id TEXT
  )`,
  apply(db, e) {
    if (e.type === "PlanChanged") {
      db.query("UPDATE organizations SET plan = ? WHERE customer_id = ?").run(e.data.planCode, e.data.customerId);
      return;
    }
    if (e.type === "BillingCustomerLinked") {
      db.query("UPDATE organizations SET billing_provider = ?, billing_customer_id = ? WHERE customer_id = ?").run(
        e.data.provider,
        e.data.billingCustomerId,
        e.data.customerId,
      );
      return;
    }
    if (e.type !== "AccountOpened") return;
    const d = e.data;
    db.query(
      "INSERT INTO organizations (customer_id, org_code, email, plan, monthly_grant, created_at, created_position) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(d.customerId, d.orgCode, d.email, d.plan, d.monthlyGrant, e.recordedAt, e.position);
  },
};

export interface Organization {
  customerId: string;
  orgCode: string;
  email: string;
  plan: string;
  monthlyGrant: number;
  createdAt: string;
  /** The billing provider provisioning linked a customer with, and that customer's id there; null until then. */
  billingProvider: string | null;
  billingCustomerId: string | null;
}

/** Every organization's id, for the monthly grant's sweep. */
export function allCustomerIds(db: ReadModels): string[] {
  return db
    .query<{ customerId: string }, []>("SELECT customer_id AS customerId FROM organizations ORDER BY created_position")
    .all()
    .map((r) => r.customerId);
}

export function findOrganization(db: ReadModels, customerId: string): Organization | null {
  return db
    .query<Organization, [string]>(
      "SELECT customer_id AS customerId, org_code AS orgCode, email, plan, monthly_grant AS monthlyGrant, created_at AS createdAt, billing_provider AS billingProvider, billing_customer_id AS billingCustomerId FROM organizations WHERE customer_id = ?",
    )
    .get(customerId);
}
