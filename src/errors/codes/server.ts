import type { ErrorEntry } from "../error-entry";

// The service's own failures and its unreachable dependencies.

/** 5xx: 500 for a failure of Assay's own, 503 for a dependency unconfigured or unreachable. */
export const serverErrors = [
  {
    code: "INTERNAL_ERROR",
    status: 500,
    title: "Internal error",
    guidance: "Retry; if it persists, contact support with the requestId.",
  },
  {
    code: "JOB_EXECUTION_FAILED",
    status: 500,
    title: "Job execution failed",
    guidance:
      "The job failed after acceptance and charge; undelivered captures and errored rows are refunded. Retry when retryable is true.",
  },
  {
    code: "BILLING_NOT_PROVISIONED",
    status: 503,
    title: "Billing not provisioned",
    guidance: "The organization has no billing customer or live agreement; no default plan is substituted.",
  },
  {
    code: "BILLING_PROVIDER_UNREACHABLE",
    status: 503,
    title: "Billing provider unreachable",
    guidance:
      "The billing provider or synced plan catalog is unreadable; a cached plan resolution of at most 5 minutes is still served.",
  },
  {
    code: "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
    status: 503,
    title: "Email client catalog unavailable",
    guidance:
      "The render catalog is unreachable and uncached; retry or resubmit without per-validation clients. Nothing was charged.",
  },
  {
    code: "ENGINE_UNAVAILABLE",
    status: 503,
    title: "Browser engine unavailable",
    guidance:
      "A validation names a browser engine this server cannot run now (details.engine, details.missing: the programs it lacks, or why it would not start). Nothing was charged; resubmit without that engine, or ask the operator to install it (scripts/setup.mjs installs WebKitGTK's driver, Xvfb and Mesa, and Firefox ESR).",
    addedBySpecGap: true,
  },
  {
    code: "PLAN_NOT_PUBLISHED",
    status: 503,
    title: "Plan not published",
    guidance:
      "The plan lacks a usable credits entitlement or the plan code is not granted; the free plan uses a configured monthly credit amount.",
  },
  {
    code: "SERVICE_UNAVAILABLE",
    status: 503,
    title: "Service unavailable",
    guidance:
      "A required dependency is unconfigured or unreachable; refused before work or billing. Retrying the same body is safe.",
  },
] as const satisfies readonly ErrorEntry[];
