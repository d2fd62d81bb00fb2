import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

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
