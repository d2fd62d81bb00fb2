import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ErrorCode } from "../errors/catalog";
import { JOB_REQUEST_ERRORS } from "../domain/job-request";
import { PLAN_GATE_ERRORS } from "../domain/plan-gate";

/** The annotations of a tool that only reads our own data. */
export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} satisfies ToolAnnotations;

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What resolving the caller's plan may answer (src/services/plans.ts): every plan-dependent operation lists these. */
export const PLAN_RESOLUTION_ERRORS = [
  "PLAN_NOT_PUBLISHED",
  "BILLING_NOT_PROVISIONED",
  "BILLING_PROVIDER_UNREACHABLE",
  "SERVICE_UNAVAILABLE",
] as const;

/**
 * What admitting a job may answer before anything is charged (its plan, the planner, the plan's gate, the mail clients
 * offered, the engines this server can run, the balance): a lone job's (run_job) and each page's of a run (run_site).
 */
export const JOB_ADMISSION_ERRORS: readonly ErrorCode[] = [
  ...PLAN_RESOLUTION_ERRORS,
  ...JOB_REQUEST_ERRORS,
  ...PLAN_GATE_ERRORS,
  "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
  "ENGINE_UNAVAILABLE",
  "INSUFFICIENT_CREDITS",
];
