import { AppError } from "../errors/app-error";
import { Scope as ScopeSchema, type EventOf, type KeyMintedData } from "../../events";
import type { NewEvent, StreamWrite } from "../store/event-log";
import { decide as decideCredits } from "./credits";
import { sha256Hex } from "../store/canonical";
import { FREE_PLAN_CODE } from "../catalog/plans";

/** Every scope, in the order the KeyMinted schema declares them (the one list of scopes). */
export const ALL_SCOPES = ScopeSchema.anyOf.map((s) => s.const);
export type Scope = (typeof ALL_SCOPES)[number];

/** What each scope lets a key do; the signup key holds all of them. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "jobs:read": "list jobs and their results, fetch captures",
  "jobs:write": "estimate and run jobs",
  "account:read": "read the organization, its credits and its keys",
  "feedback:write": "read due feedback sets and answer them",
  "webhooks:write":
    "register, rotate, delete and replay the webhook endpoints that receive the organization's job outcomes",
};

export const streams = {
  email: (emailHash: string) => `email-${emailHash}`,
  account: (customerId: string) => `account-${customerId}`,
  credits: (customerId: string) => `credits-${customerId}`,
  job: (jobId: string) => `job-${jobId}`,
  person: (emailHash: string) => `person-${emailHash}`,
  signInLink: (linkId: string) => `signin-${linkId}`,
  session: (sessionId: string) => `session-${sessionId}`,
  invitation: (invitationId: string) => `invitation-${invitationId}`,
  device: (codeId: string) => `device-${codeId}`,
  webhooks: (customerId: string) => `webhooks-${customerId}`,
  webhookDelivery: (deliveryId: string) => `webhook-delivery-${deliveryId}`,
  run: (runId: string) => `run-${runId}`,
  project: (customerId: string, project: string) => `project-${customerId}-${project}`,
};

/** A new key as the log records it: its id, name, scopes, and only a hash and a prefix of the secret. */
export type MintedKey = Omit<KeyMintedData, "customerId">;

export interface OpenAccount {
  email: string;
  emailHash: string;
  customerId: string;
  orgCode: string;
  signupCredits: number;
  monthlyGrant: number;
  /** The signup's period (`YYYY-MM`): the signup grant covers it, so the first monthly grant is the next month's. */
  period: string;
  /** The signup key; an account opened by a first sign-in has none (its person mints keys). */
  key?: MintedKey;
}

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Syntactic check (RFC 5322 dot-atom local part, a domain of two or more labels) and normalisation. */
export function normaliseEmail(raw: unknown): string {
  if (typeof raw !== "string") {
    throw new AppError("SIGNUP_INVALID_EMAIL", "email must be a string holding an email address.", { field: "email" });
  }
  const email = raw.trim();
  const [local = "", domain = ""] = email.split("@");
  if (
    email.length > 254 ||
    local.length > 64 ||
    !EMAIL.test(email) ||
    local.startsWith(".") ||
    local.endsWith(".") ||
    local.includes("..")
  ) {
    throw new AppError("SIGNUP_INVALID_EMAIL", `${JSON.stringify(raw)} is not a valid email address.`, {
      field: "email",
    });
  }
  return `${local}@${domain.toLowerCase()}`;
}

/** What the log keys an email by (its claim, its person): the SHA-256 of the normalised address in lower case. */
export const emailHashOf = (email: string) => sha256Hex(email.toLowerCase());

const keyMinted = (customerId: string, key: MintedKey): EventOf<"KeyMinted"> => ({
  type: "KeyMinted",
  data: { customerId, ...key },
});

/** Decides a signup: one account per email, with its first key and the signup grant. */
export function decideOpenAccount(cmd: OpenAccount, emailAlreadyClaimed: boolean): StreamWrite[] {
  if (emailAlreadyClaimed) {
    throw new AppError("ACCOUNT_EXISTS", "An account already exists for this email. Sign in and mint a key instead.", {
      field: "email",
    });
  }
  const account: NewEvent[] = [
    {
      type: "AccountOpened",
      data: {
        customerId: cmd.customerId,
        orgCode: cmd.orgCode,
        email: cmd.email,
        plan: FREE_PLAN_CODE,
        monthlyGrant: cmd.monthlyGrant,
      },
    },
    ...(cmd.key ? [keyMinted(cmd.customerId, cmd.key)] : []),
  ];
  return [
    {
      streamId: streams.email(cmd.emailHash),
      expectedVersion: 0,
      events: [{ type: "EmailClaimed", data: { emailHash: cmd.emailHash, customerId: cmd.customerId } }],
    },
    { streamId: streams.account(cmd.customerId), expectedVersion: 0, events: account },
    {
      streamId: streams.credits(cmd.customerId),
      expectedVersion: 0,
      events: decideCredits(
        {
          kind: "grant",
          customerId: cmd.customerId,
          amount: cmd.signupCredits,
          reason: "signup",
          period: cmd.period,
          planCode: FREE_PLAN_CODE,
        },
        { balance: 0 },
      ),
    },
  ];
}

/**
 * Decides moving an organization to another plan of the catalog. Under a remote billing provider (`managedBy`, its
 * name) the plan is the provider's subscription, so no change is Assay's to make: PLAN_MANAGED_BY_BILLING. The same
 * plan again is no change (no event); a code the catalog lacks is PLAN_UNKNOWN.
 */
export function decideChangePlan(
  customerId: string,
  planCode: string,
  currentPlanCode: string,
  knownPlanCodes: readonly string[],
  managedBy: string | null,
): StreamWrite[] {
  if (managedBy) {
    throw new AppError(
      "PLAN_MANAGED_BY_BILLING",
      `The plan is managed by the billing provider (${managedBy}): change the subscription there.`,
      { provider: managedBy },
    );
  }
  if (!knownPlanCodes.includes(planCode)) {
    throw new AppError("PLAN_UNKNOWN", `No plan ${JSON.stringify(planCode)} in the plan catalog.`, {
      field: "planCode",
      planCode,
      knownPlanCodes,
    });
  }
  if (planCode === currentPlanCode) return [];
  return [
    {
      streamId: streams.account(customerId),
      expectedVersion: "any",
      events: [{ type: "PlanChanged", data: { customerId, planCode, previousPlanCode: currentPlanCode } }],
    },
  ];
}

/**
 * Decides recording the organization's customer with a billing provider, as provisioning created or found it. The
 * link it already has is no change (no event); a different one (the customer was replaced) is recorded anew.
 */
export function decideLinkBillingCustomer(
  customerId: string,
  link: { provider: string; billingCustomerId: string },
  current: { provider: string | null; billingCustomerId: string | null },
): StreamWrite[] {
  if (current.provider === link.provider && current.billingCustomerId === link.billingCustomerId) return [];
  return [
    {
      streamId: streams.account(customerId),
      expectedVersion: "any",
      events: [{ type: "BillingCustomerLinked", data: { customerId, ...link } }],
    },
  ];
}

/** Decides minting a further key for an organization, which must exist. */
export function decideMintKey(customerId: string, key: MintedKey, organizationExists: boolean): StreamWrite[] {
  if (!organizationExists) {
    throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${customerId}.`, { customerId });
  }
  return [{ streamId: streams.account(customerId), expectedVersion: "any", events: [keyMinted(customerId, key)] }];
}

/** Decides a new secret for an active key of the organization; the old one keeps working until `previousValidUntil`. */
export function decideRotateKey(
  customerId: string,
  rotation: { keyId: string; displayPrefix: string; secretHash: string; previousValidUntil: string },
  keyIsActive: boolean,
): StreamWrite[] {
  if (!keyIsActive)
    throw new AppError("STORAGE_OBJECT_NOT_FOUND", `No active key ${rotation.keyId} in this organization.`, {
      keyId: rotation.keyId,
    });
  return [
    {
      streamId: streams.account(customerId),
      expectedVersion: "any",
      events: [{ type: "KeyRotated", data: { customerId, ...rotation } }],
    },
  ];
}

/** Decides revoking a key, which must be one of the organization's keys and still active. */
export function decideRevokeKey(customerId: string, keyId: string, keyIsActive: boolean): StreamWrite[] {
  if (!keyIsActive)
    throw new AppError("STORAGE_OBJECT_NOT_FOUND", `No active key ${keyId} in this organization.`, { keyId });
  return [
    {
      streamId: streams.account(customerId),
      expectedVersion: "any",
      events: [{ type: "KeyRevoked", data: { keyId, customerId } }],
    },
  ];
}
