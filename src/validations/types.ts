import type { TSchema } from "@sinclair/typebox";
import type { Static } from "@sinclair/typebox";
import type {
  Finding as FindingSchema,
  JudgeProvenance as JudgeProvenanceSchema,
  ResultReasonCode,
  Severity as SeveritySchema,
} from "../../events/jobs";
import type { WebArtifacts } from "../capture/artifacts";
import type { EmailArtifacts } from "../capture/email/email-artifacts";
import type { UrlProbe } from "../capture/url-probe";
import type { CaptureSize } from "../capture/vocabulary";
import type { ArtifactKind } from "../capture/artifacts";

export type Severity = Static<typeof SeveritySchema>;
export type Finding = Static<typeof FindingSchema>;
export type Verdict = "pass" | "fail" | "error";
export type JudgeProvenance = Static<typeof JudgeProvenanceSchema>;

export interface ParameterSpec {
  name: string;
  description: string;
  /** Human-readable format, shown in the catalog ("string or array of strings"). */
  format: string;
  schema: TSchema;
  default?: unknown;
  example: unknown;
  /** The value is an image URL (http(s) or data:) the capture engine loads, through the network guard, and measures as a reference. */
  referenceImage?: boolean;
  /** The axe-core tags the value asks for beyond WCAG A and AA (AAA's), which the capture's axe run then takes in. */
  axeTags?: (value: unknown) => string[];
}

export interface Reference {
  title: string;
  url: string;
}

export interface ValidationMeta {
  id: string;
  slug: string;
  name: string;
  subjectType: "url" | "email";
  kind: "functional" | "visual";
  category: string;
  severity: Severity;
  price: { credits: number };
  /** One line for lists. */
  summary: string;
  /** What pass and fail mean, in prose; also handed to a model judge. */
  judgment: string;
  parameters: ParameterSpec[];
  requiresConfiguration: boolean;
  capture: { offered: CaptureSize[]; standard: CaptureSize[] };
  needs: ArtifactKind[];
  references: Reference[];
}

export interface Outcome {
  verdict: Verdict;
  /** The reason to fix, on fail; the cause, on error. */
  reason?: string;
  /** How the verdict was reached, citing what was measured. */
  reasoning: string;
  findings: Finding[];
  /** Set by a judge, never by a check: NEEDS_REVIEW (a model's fail the measurements contradict). */
  reasonCode?: Static<typeof ResultReasonCode>;
  /** Set by a model judge: how it judged (src/judge/model.ts). */
  judge?: JudgeProvenance;
}

/**
 * What a check may do beyond reading the artifacts, built by the job service for one job. Kept apart from
 * WebArtifacts on purpose: artifacts are data the capture gathered (the same for every check, nothing in
 * them reaches the network), while this is a capability with a job-long lifetime (its cache and its
 * concurrency limit are per job) and with the network guard inside it. An explicit argument makes the
 * checks that go to the network visible in their signature, and lets a test hand in a stub.
 */
export interface CheckServices {
  /** Server-side requests through the network guard: cached per job, concurrency-limited. */
  probe: UrlProbe;
}

export interface WebValidation {
  meta: ValidationMeta & { subjectType: "url" };
  evaluate(
    artifacts: WebArtifacts,
    params: Record<string, unknown>,
    services: CheckServices,
  ): Outcome | Promise<Outcome>;
}

export interface EmailValidation {
  meta: ValidationMeta & { subjectType: "email" };
  evaluate(email: EmailArtifacts, params: Record<string, unknown>): Outcome | Promise<Outcome>;
}

export type ValidationModule = WebValidation | EmailValidation;

/** Builds a fail outcome whose reason names the first few findings, so the user knows where to look. */
export function failWith(summary: string, findings: Finding[], reasoning: string): Outcome {
  const where = findings
    .slice(0, 3)
    .map((f) => f.selector ?? f.url ?? f.text)
    .filter(Boolean)
    .join("; ");
  return {
    verdict: "fail",
    reason: where ? `${summary} (${where}${findings.length > 3 ? `; +${findings.length - 3} more` : ""})` : summary,
    reasoning,
    findings,
  };
}

export function pass(reasoning: string, findings: Finding[] = []): Outcome {
  return { verdict: "pass", reasoning, findings };
}
