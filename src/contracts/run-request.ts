import { Type, type Static } from "@sinclair/typebox";
import { Ignore, PROJECT_PATTERN, VisualSettings } from "../../events/runs";
import { JobRequest } from "./job-request";

/** The body of POST /api/runs and run_site: a project's pages, each a job request, checked as one run. */

export { Ignore, PROJECT_PATTERN, VisualSettings };

/** A project's name, as a request gives it. */
export const ProjectName = Type.String({
  pattern: PROJECT_PATTERN,
  description:
    "The project: lower-case letters, digits, dots, dashes and underscores (1-64), unique in the organization; created by its first run.",
});

const { customerId: _customerId, ...pageFields } = JobRequest.properties;

/** One page of a run: a job request (its organization is the run's) and an optional name, its identity across runs. */
export const RunPageRequest = Type.Object(
  {
    ...pageFields,
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          "The page's identity across runs (its pageKey); default: the normalized URL (url), baseUrl (static_html) or subject (email).",
      }),
    ),
  },
  { additionalProperties: false, description: "A job request (url, static_html or email), and the page's name." },
);

const runFields = {
  project: ProjectName,
  branch: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        "The branch the pages were built from: a completed run on the project's base branch becomes its baseline.",
    }),
  ),
  commit: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "The commit the pages were built from." }),
  ),
  failOn: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "What blocks, comma-separated: fail (default: failed required and prohibited checks), a severity (that or graver), error (blocking checks that could not run), new (only failures the baseline did not have), visual (visual changes beyond the tolerance).",
    }),
  ),
  ignores: Type.Optional(
    Type.Array(Ignore, {
      maxItems: 1000,
      description:
        "Known failures accepted with a reason: a check, optionally a page glob (over pageKey), a selector and a finding text. Accepted failures are shown, never dropped, and do not block.",
    }),
  ),
  visual: Type.Optional(VisualSettings),
  wait: Type.Optional(
    Type.Boolean({
      description:
        "HTTP: answer once every page has settled (200) instead of at once (202, status running). MCP run_site answers at once; poll get_run.",
    }),
  ),
  customerId: Type.Optional(
    Type.String({ description: "Your organization; defaults to the key's. Another's is refused." }),
  ),
};

/** The run request as published (OpenAPI, the MCP tool's schema): each page a job request. */
export const RunRequest = Type.Object(
  {
    ...runFields,
    pages: Type.Array(RunPageRequest, {
      minItems: 1,
      description: "The pages, each a job request with an optional name (at most ASSAY_RUN_MAX_PAGES).",
    }),
  },
  { additionalProperties: false },
);

/**
 * The run request as the run service reads it: the run's own fields by their schemas, each page left for the job
 * planner, which validates it in its documented order with its own codes (refusals name the page's index).
 */
export const RunEnvelope = Type.Object(
  { ...runFields, pages: Type.Array(Type.Unknown(), { minItems: 1 }) },
  { additionalProperties: false },
);

export type RunRequestBody = Static<typeof RunRequest>;
export type RunPageRequestBody = Static<typeof RunPageRequest>;
export type IgnoreRule = Static<typeof Ignore>;
