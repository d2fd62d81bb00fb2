import type { Static } from "@sinclair/typebox";
import type { SkippedValidation as SkippedValidationSchema } from "../../events/jobs";
import type { JOB_TYPES } from "../contracts/job-request";
import type { SortedFieldErrors } from "../contracts/field-errors";
import { findValidation } from "../catalog/registry";
import type { ValidationSet } from "../catalog/sets";
import type { CaptureSize, RenderEngine } from "../capture/vocabulary";
import type { Severity, ValidationModule } from "../validations/types";
import type { NetworkGuard } from "../capture/network-guard";
import { isPolicySeverity, storedSeverity, type PolicySeverity } from "./pass-policy";
import type { NormalisedEntry } from "./validation-entries";

/**
 * What the planner (./job-request.ts) works out about a job request: the draft its steps fill in, and the
 * planned job it answers (what runs, at what severity and with which parameters, what is skipped, on what subject).
 */

export type JobType = (typeof JOB_TYPES)[number];

export interface PlannedValidation {
  module: ValidationModule;
  severity: Severity;
  /** The severity as the request named it in the hosted vocabulary (severity holds its Assay equivalent). */
  policySeverity?: PolicySeverity;
  parameters: Record<string, unknown>;
  credits: number;
  fromSet: boolean;
  clients?: Record<string, string[]>;
  /** Webpage checks that take engines: the engines it is judged in, as the request named them (absent: Chromium only). */
  engines?: RenderEngine[];
}

/** The engines a webpage check is judged in: the ones its entry named, or Chromium alone. */
export const enginesOf = (v: Pick<PlannedValidation, "engines">): RenderEngine[] =>
  v.engines ? [...new Set(v.engines)] : ["chromium"];

/** The sizes a webpage check is captured and judged at: its standard sizes, and those the request adds (captureSizes). */
export function sizesOf(module: ValidationModule, captureSizes: readonly CaptureSize[] = []): CaptureSize[] {
  return [...new Set([...module.meta.capture.standard, ...captureSizes])];
}

export type SkippedValidation = Static<typeof SkippedValidationSchema>;

/** A job request that passed every check: what to run, what was skipped, and on what subject. */
export interface PlannedJob {
  type: JobType;
  url?: string;
  html?: string;
  baseUrl?: string;
  emailSubject?: string;
  validationSetId?: string;
  run: PlannedValidation[];
  skipped: SkippedValidation[];
  captureSizes?: CaptureSize[];
  detail: "brief" | "verbose";
  totalCredits: number;
}

export type Selection = { run: Array<Omit<PlannedValidation, "credits">>; skipped: SkippedValidation[] };

/** What the steps learn about a body, in order: each step reads what the steps before it settled. */
export class PlanDraft {
  body!: Record<string, unknown>;
  type!: JobType;
  fields!: SortedFieldErrors;
  entries!: NormalisedEntry[];
  set?: ValidationSet;
  unique!: NormalisedEntry[];
  /** One flat parameter map per job: name -> value, and the entry that gave it. */
  parameters!: Map<string, { value: unknown; path: string }>;
  private chosen?: Selection;

  constructor(
    readonly raw: unknown,
    readonly guard: NetworkGuard,
  ) {}

  get jobSubject(): "url" | "email" {
    return this.type === "email" ? "email" : "url";
  }

  /** What runs and what is skipped; worked out once, when step 21 (clients) first asks. */
  get selection(): Selection {
    return (this.chosen ??= select(this));
  }
}

/** Set members first, then extras; parameters come from the flat map, defaults fill the rest. */
function select({ set, unique, parameters: flat }: PlanDraft): Selection {
  const selected = new Map<string, { module: ValidationModule; entry?: NormalisedEntry; fromSet: boolean }>();
  for (const id of set?.validationIds ?? []) selected.set(id, { module: findValidation(id)!, fromSet: true });
  for (const e of unique) {
    const prior = selected.get(e.id);
    selected.set(e.id, { module: findValidation(e.id)!, entry: e, fromSet: prior?.fromSet ?? false });
  }
  const run: Selection["run"] = [];
  const skipped: SkippedValidation[] = [];
  for (const { module, entry, fromSet } of selected.values()) {
    const parameters: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const p of module.meta.parameters) {
      const given = flat.get(p.name);
      if (given) parameters[p.name] = given.value;
      else if (p.default !== undefined) parameters[p.name] = p.default;
      else missing.push(p.name);
    }
    if (module.meta.requiresConfiguration && missing.length) {
      skipped.push({
        validationId: module.meta.id,
        reason: "REQUIRES_CONFIGURATION",
        message: `${module.meta.id} needs ${missing.join(", ")}; ask the user for ${missing.length > 1 ? "them" : "it"} rather than guessing. Not run and not charged.`,
      });
      continue;
    }
    const asked = entry?.config.severity;
    run.push({
      module,
      severity: asked ? storedSeverity(asked) : module.meta.severity,
      ...(asked && isPolicySeverity(asked) ? { policySeverity: asked } : {}),
      parameters,
      fromSet,
      ...(entry?.config.clients ? { clients: entry.config.clients } : {}),
      ...(entry?.config.engines ? { engines: [...new Set(entry.config.engines)] } : {}),
    });
  }
  return { run, skipped };
}
