import { validationModules } from "../catalog/registry";
import { validationSets } from "../catalog/sets";
import { errorCatalog } from "../errors/catalog";
import { JOB_TYPES } from "../contracts/job-request";
import { JOB_FIELDS, JOB_RULES, jobExamples } from "../services/job-request-description";
import { SCOPE_DESCRIPTIONS, ALL_SCOPES } from "../domain/accounts";
import { operations } from "../operations";
import { isTool } from "../operations/operation";
import { mcpErrors } from "../operations/errors";
import { MCP_PROTOCOL_VERSIONS } from "../mcp/server";
import { SEVERITY_MAPPING } from "../domain/pass-policy";

/**
 * /llms.txt (the short map) and /llms-full.txt (everything an agent needs in one file), generated from the
 * catalog, the sets, the error table, the job request and the tool list, so they cannot drift from them.
 */

const NEVER_INVENT =
  "Never invent business facts to satisfy a check: postal address, unsubscribe URL, sender domain, required or forbidden text, allowed link domains, brand colours, logo URL. Ask the user. A check whose parameters are missing is skipped (listed in skipped_validations, not charged), never guessed.";

const VERDICTS = [
  "- `pass`: the check passed.",
  "- `fail`: the check ran and found a problem; `reason` says what to fix and where, `findings` point at elements (selectors, URLs, text). Fix it, or report it to the user.",
  "- `error`: the check could not run (a tooling problem: a page that would not load, a crash, an unreadable message). It is not a verdict on the work and is refunded. Retrying may help; do not report it as a failure.",
].join("\n");

/** The decision and the two severity vocabularies (src/domain/pass-policy.ts). */
const PASS_POLICY = [
  "A job decides itself: in `overallPassPolicy`, `blockedByRequired` (a check of severity required failed) and `blockedByProhibited` (a prohibited thing was found) are booleans, and either true means blocked; `blockingRequired` and `blockingProhibited` list the ids. `undecided` lists blocking checks that could not run (error); an interrupted or expired job is undecided. Otherwise it passes. `validationSets[]` give each check's `severity` and `status`, and `failuresBySeverity`. Poll `GET /api/jobs/{jobId}` for one job.",
  "",
  "Severities come in two vocabularies, both accepted in `validations[].severity`:",
  "",
  "| Assay | Hosted | A failure |",
  "|---|---|---|",
  ...SEVERITY_MAPPING.map(
    (m) => `| ${m.assay ? `\`${m.assay}\`` : "(none)"} | \`${m.policy}\` | ${m.blocks ? "blocks" : "warns"} |`,
  ),
  "",
  "A request's `required` is stored as `critical`, `recommended` as `minor`, `optional` as `info`; `prohibited` as `critical`, kept as prohibited. Each set (`GET /api/validation-sets/{id}`) lists its `blockingValidationIds` and `warningValidationIds`.",
].join("\n");

const GET_A_KEY = (base: string) =>
  [
    `1. Ask the user for an email address they control (signing in with it later claims the account). Never invent one.`,
    `2. \`POST ${base}/api/signup\` with \`{ "email": "<their email>" }\`, or the MCP tool \`create_account\`. The answer holds \`apiKey\`, shown only once: store it. A free account starts with 1,000 credits. If \`billing.ready\` is false, the key's jobs answer \`billing.code\` until the server's operator sets billing up: tell the user \`billing.message\`.`,
    `3. Send it as \`Authorization: Bearer <apiKey>\` on \`/api\` calls and on \`${base}/mcp\`.`,
    `4. An existing account for that email is \`409 ACCOUNT_EXISTS\`: send the user to the dashboard, \`${base}/dashboard/keys\`: they sign in there (an emailed link; where the server has an OpenID provider, their company account) and mint a key, whose secret the page shows once. A program holding their session may do the same with \`POST ${base}/api/session/email\` and \`POST ${base}/api/keys\`. Keys are minted, rotated and revoked from a session only; a key may revoke itself with \`DELETE ${base}/api/keys/{keyId}\`.`,
    `5. A program the user runs on their machine (a command-line client) may sign in by the device flow of RFC 8628 instead: \`POST ${base}/api/device/code\`, show the user \`user_code\` and \`verification_uri\` (\`${base}/device\`, where they sign in and approve), then poll \`POST ${base}/api/device/token\` every \`interval\` seconds until it answers the key (\`access_token\`).`,
  ].join("\n");

const PICK_CHECKS = [
  "- Start from the goal: the MCP tool `recommend_checks` (goal + job type) answers a set, the checks and why, and the parameters to ask the user for; `search_validations` finds checks by words.",
  "- Or read the catalog: `GET /api/validations` (`runnable: true` ids only; `requiresConfiguration: true` ones need `parameters`), `GET /api/validation-sets`.",
  "- One `validationSetId` per job; add or configure checks on top of it through `validations[]`.",
  "- Check the body before spending: `check_job_request` (no key) or `POST /api/jobs/estimate` (same body, priced, nothing charged).",
].join("\n");

const EMAIL_JOBS = (base: string) =>
  [
    '1. `POST /api/jobs` (or `run_job`) with `"type": "email"`: validated, priced and charged like any job; the answer is `status: "pending"` with `testEmail`, a one-time address, and `expiresAt` (30 minutes by default).',
    "2. Send the real email to `testEmail` over SMTP, or ask the user to. One message per address; anything else is refused at RCPT.",
    `3. Poll \`GET ${base}/api/jobs?jobId=<jobId>\` every few seconds (or call \`await_email_job\`, which waits up to 120 s per call) until \`status\` is no longer \`pending\`: \`completed\` (checked; results as for webpages) or \`expired\` (nothing arrived in time; every credit refunded).`,
    `4. The message exactly as it arrived: \`GET ${base}/api/jobs/<jobId>/email\` (same key) answers it as \`message/rfc822\`, an attachment \`<jobId>.eml\`.`,
  ].join("\n");

function jobExamplesMarkdown(): string {
  return JOB_TYPES.map((type) => {
    const ex = jobExamples(type);
    const body = JSON.stringify(ex.minimal, null, 2);
    const withParams =
      "withParameters" in ex
        ? `\n\nWith a configured check (${ex.parametersNote}):\n\n\`\`\`json\n${JSON.stringify(ex.withParameters, null, 2)}\n\`\`\``
        : "";
    return `### \`${type}\`\n\n\`\`\`json\n${body}\n\`\`\`${withParams}`;
  }).join("\n\n");
}

const tools = operations.filter(isTool);

function toolsMarkdown(): string {
  const key = ({ auth }: (typeof tools)[number]) =>
    auth.kind === "key" ? `key (${auth.scope})` : auth.kind === "optional" ? `optional (${auth.scope})` : "none";
  return [
    "| Tool | Key | What |",
    "|---|---|---|",
    ...tools.map((t) => `| \`${t.mcp.name}\` | ${key(t)} | ${t.mcp.description.replace(/\|/g, "\\|")} |`),
  ].join("\n");
}

export function llmsTxt(base: string): string {
  const sets = validationSets.map(
    (s) =>
      `- [${s.name}](${base}/api/validation-sets/${s.id}): \`${s.id}\` (${s.subjectType}), ${s.validationIds.length} checks. ${s.description}`,
  );
  return [
    "# Assay",
    "",
    "> A headless QA agent for webpages and emails. Send one subject per job (a URL, HTML with a base URL, or an email), pick checks, get one verdict per check: `pass`, `fail` (with the reason to fix) or `error` (could not run; refunded). Plain HTTP + JSON under /api, and the same capabilities as MCP tools at /mcp.",
    "",
    `Rule: ${NEVER_INVENT}`,
    "",
    "## Get a key",
    "",
    GET_A_KEY(base),
    "",
    "## Pick checks",
    "",
    PICK_CHECKS,
    "",
    "## Run a job",
    "",
    `\`POST ${base}/api/jobs\` with a job body (examples per subject type in [llms-full.txt](${base}/llms-full.txt)): \`{ "type": "url", "url": "https://…", "validationSetId": "${validationSets[0]?.id ?? "…"}" }\`. url and static_html jobs answer with their results.`,
    "",
    "## Email jobs",
    "",
    EMAIL_JOBS(base),
    "",
    "## Verdicts",
    "",
    VERDICTS,
    "",
    "## Pass or block",
    "",
    PASS_POLICY,
    "",
    "## Docs",
    "",
    `- [llms-full.txt](${base}/llms-full.txt): every check, set, error code, the job body and the tools in one file`,
    `- [MCP tool server](${base}/mcp): streamable HTTP; metadata at ${base}/.well-known/oauth-protected-resource/mcp, and the device flow's at ${base}/.well-known/oauth-authorization-server`,
    `- [OpenAPI 3.1](${base}/api/openapi.json): every /api route with its error codes`,
    `- [Validations](${base}/api/validations): the catalog (${validationModules.length} checks)`,
    `- [Errors](${base}/api/errors): every error code, its HTTP status and what to do`,
    `- [Brand card](${base}/.well-known/brand-card.json) and [category catalog](${base}/.well-known/brand-schema.json)`,
    "",
    "## Validation sets",
    "",
    ...sets,
    "",
  ].join("\n");
}

export function llmsFullTxt(base: string): string {
  const out: string[] = [
    "# Assay: the whole service for agents",
    "",
    "> A headless QA agent for webpages and emails. One subject per job, one verdict per check: `pass`, `fail` or `error`. Generated from the service's own catalog, sets, error table and job request schema.",
    "",
    "## The rule",
    "",
    NEVER_INVENT,
    "",
    "## Get a key",
    "",
    GET_A_KEY(base),
    "",
    "Key scopes (fixed when a key is minted; the signup key has all):",
    "",
    ...ALL_SCOPES.map((s) => `- \`${s}\`: ${SCOPE_DESCRIPTIONS[s]}`),
    "",
    "## Pick checks",
    "",
    PICK_CHECKS,
    "",
    "## The job body",
    "",
    `The body of \`POST ${base}/api/jobs\` and \`POST ${base}/api/jobs/estimate\`, and the arguments of \`run_job\`, \`estimate_job\` and \`check_job_request\`. JSON Schema: \`components.schemas.JobRequest\` in ${base}/api/openapi.json.`,
    "",
    "| Field | Required | Notes |",
    "|---|---|---|",
    ...JOB_FIELDS.map((f) => `| \`${f.field}\` | ${f.required} | ${f.description} |`),
    "",
    ...JOB_RULES.map((r) => `- ${r}`),
    "",
    "## Examples per subject type",
    "",
    jobExamplesMarkdown(),
    "",
    "## Email jobs",
    "",
    EMAIL_JOBS(base),
    "",
    "## What the results mean",
    "",
    VERDICTS,
    "",
    PASS_POLICY,
    "",
    "A job's `summary.passed` is true when `overallPassPolicy.decision` is `pass` (failed recommended or optional checks only warn). `skipped_validations` lists checks not run (missing parameters): not verdicts, not charged. `credits` shows what was charged and refunded. Results with captures carry `screenshotUrl` (same Bearer key; does not expire) and `screenshotShareUrl` (short-lived, no key).",
    "",
    "## MCP tools",
    "",
    `Streamable HTTP at \`${base}/mcp\` (POST; stateless, JSON responses). Protocol versions accepted: ${MCP_PROTOCOL_VERSIONS.map((v) => `\`${v}\``).join(", ")}. Tools that need a key answer HTTP 401 without one, with \`WWW-Authenticate: Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"\`. A refused call is a tool error (\`isError\`) whose text and \`structuredContent\` carry the error's \`code\`, \`message\` and \`details\`.`,
    "",
    toolsMarkdown(),
    "",
    "Codes each tool's refusals may carry (besides `AUTH_REQUIRED` and `INTERNAL_ERROR`):",
    "",
    ...tools.map((t) => {
      const codes = mcpErrors(t);
      return `- \`${t.mcp.name}\`: ${codes.length ? codes.map((c) => `\`${c}\``).join(", ") : "none"}`;
    }),
    "",
    "## Validation sets",
    "",
  ];
  for (const s of validationSets)
    out.push(
      `### \`${s.id}\`: ${s.name} (${s.subjectType})`,
      "",
      s.description,
      "",
      s.validationIds.map((id) => `\`${id}\``).join(", "),
      "",
    );
  out.push("## Validations", "");
  for (const m of validationModules) {
    const meta = m.meta;
    out.push(
      `### \`${meta.id}\`: ${meta.name}`,
      "",
      `${meta.subjectType} · ${meta.category} · ${meta.kind} · severity ${meta.severity} · ${meta.price.credits} credit${meta.price.credits === 1 ? "" : "s"}${meta.requiresConfiguration ? " · needs parameters" : ""}`,
      "",
      meta.summary,
      "",
      meta.judgment,
      "",
    );
    if (meta.parameters.length) {
      out.push("Parameters (ask the user for the values):", "");
      for (const p of meta.parameters)
        out.push(
          `- \`${p.name}\` (${p.format}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ""}): ${p.description}`,
        );
      out.push("");
    }
  }
  out.push(
    "## Errors",
    "",
    "Every error body is `{ code, title, message, developerMessage, details?, requestId }`; 5xx add `retryable`. Branch on `code` (stable); the prose may change. 4xx refusals of a job body happen before pricing: nothing is charged and no job is created.",
    "",
    "| Code | HTTP | What to do |",
    "|---|---|---|",
    ...errorCatalog.map((e) => `| \`${e.code}\` | ${e.status} | ${e.guidance.replace(/\|/g, "\\|")} |`),
    "",
  );
  return out.join("\n");
}
