import { validationModules } from "../catalog/registry";
import { validationSets } from "../catalog/sets";
import { JobRequest, JOB_TYPES } from "../contracts/job-request";
import { jsonSchemaOf } from "../contracts/schema-kit";
import { PLAN_STEPS } from "../domain/job-request";
import { CAPTURE_SIZES } from "../capture/vocabulary";

// The job request described for agents and the generated agent files: its fields in words, its rules, and example
// bodies per job type that pass planJob.

export type JobType = (typeof JOB_TYPES)[number];
export type SubjectType = "url" | "email";

export const subjectOf = (type: JobType): SubjectType => (type === "email" ? "email" : "url");

/** The job request: its JSON Schema, the fields in words, the rules, and an example body per job type that passes planJob. */
export function jobRequestDescription(type?: JobType) {
  const types = type ? [type] : [...JOB_TYPES];
  return {
    schema: jsonSchemaOf(JobRequest),
    fields: JOB_FIELDS,
    examples: Object.fromEntries(types.map((t) => [t, jobExamples(t)])),
    rules: JOB_RULES,
    captureSizes: [...CAPTURE_SIZES],
    emailJobs:
      "An email job answers status pending with a one-time testEmail address. Ask the user to send the real message to it (or send it if you can), then call await_email_job (or poll GET /api/jobs?jobId=…) until status is no longer pending: completed (checked) or expired (nothing arrived; fully refunded).",
  };
}

export const JOB_FIELDS = [
  { field: "type", required: "always", description: "url, static_html or email: exactly one subject per job." },
  {
    field: "url",
    required: "type=url",
    description: "A public http(s) URL; private, loopback and internal addresses are refused (PLAYGROUND_INVALID_URL).",
  },
  { field: "html", required: "type=static_html", description: "The HTML to render." },
  {
    field: "baseUrl",
    required: "type=static_html",
    description: "The public http(s) URL the HTML is rendered as; relative links resolve against it.",
  },
  {
    field: "subject",
    required: "no (email)",
    description: "The expected subject line of the email; a different subject is reported, not refused.",
  },
  {
    field: "validations",
    required: "validations or validationSetId",
    description:
      "Ids, or { id, severity, parameters, clients, engines } objects. Identical duplicates collapse; differing ones are refused.",
  },
  {
    field: "validationSetId",
    required: "validations or validationSetId",
    description: "One set id; url sets for url and static_html jobs, email sets for email jobs.",
  },
  {
    field: "captureSizes",
    required: "no",
    description: `Extra capture sizes: ${CAPTURE_SIZES.join(", ")}; every check's standard sizes are always captured.`,
  },
  {
    field: "detail",
    required: "no",
    description:
      "brief (default) or verbose (adds references and a note per result, and a vision model's provenance, `judge`, where one judged).",
  },
  { field: "customerId", required: "no", description: "Your organization; defaults to the key's." },
];

export const JOB_RULES = [
  "One subject per job: a batch is N jobs, each with its own jobId.",
  "One validationSetId per job; add or configure checks on top of it through validations[].",
  "A job carries one flat parameter map: two entries giving one parameter different values is CONFLICTING_PARAMETERS.",
  "Checks with requiresConfiguration: true need parameters; without them they are skipped (skipped_validations), not run and not charged.",
  "Parameters are business facts (required text, allowed domains, brand colours, logo URL, unsubscribe URL, postal address): ask the user; never invent them.",
  "clients (mail clients per form factor) apply to email validations that render; functional checks and webpage checks take none.",
  'engines (["chromium", "webkit", "gecko"]) apply to webpage checks whose catalog record lists capture.engines (layout-not-broken, no-horizontal-overflow): the page is rendered and judged in each, one verdict with findings naming the engine; each engine beyond Chromium adds, per size, the price of an extra-credit render and needs a plan with extra_credit_clients.',
  "The whole body is validated before pricing: a refused body charges nothing and creates no job. Estimate and run take the same body.",
  `The checks, in order (the first failing one answers): ${PLAN_STEPS.map((s) => `${s.step}. ${s.rule} (${[...new Set(s.codes)].join(", ")})`).join(" ")}`,
  "url and static_html jobs answer with their results; email jobs answer pending with a testEmail address.",
];

/** The subject part of an example body of that job type. */
export function subjectExample(type: JobType): Record<string, unknown> {
  if (type === "url") return { type: "url", url: "https://example.com/" };
  if (type === "static_html") {
    return {
      type: "static_html",
      html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Spring sale</title><meta name="description" content="Walking boots, 25% off until Sunday."></head><body><h1>Spring sale</h1><p>Walking boots, 25% off until Sunday.</p></body></html>',
      baseUrl: "https://example.com/",
    };
  }
  return { type: "email", subject: "Your subject line" };
}

/** A minimal body (a set, or the checks that run without parameters) and one with a configured check, both valid. */
export function jobExamples(type: JobType) {
  const subject = subjectOf(type);
  const set = validationSets.find((s) => s.subjectType === subject);
  const plain = validationModules.filter((m) => m.meta.subjectType === subject && !m.meta.requiresConfiguration);
  const configured = validationModules.find((m) => m.meta.subjectType === subject && m.meta.requiresConfiguration);
  const minimal = {
    ...subjectExample(type),
    ...(set ? { validationSetId: set.id } : { validations: plain.map((m) => m.meta.id) }),
  };
  return {
    minimal,
    ...(configured
      ? {
          withParameters: {
            ...minimal,
            validations: [
              ...((minimal as { validations?: string[] }).validations ?? []),
              {
                id: configured.meta.id,
                parameters: Object.fromEntries(configured.meta.parameters.map((p) => [p.name, p.example])),
              },
            ],
          },
          parametersNote: `${configured.meta.id}'s parameter values here are the catalog's examples; in a real job they are the user's facts`,
        }
      : {}),
  };
}
