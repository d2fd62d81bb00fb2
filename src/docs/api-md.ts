import type { TSchema } from "@sinclair/typebox";
import { operations } from "../operations";
import { httpErrors, mcpErrors } from "../operations/errors";
import { argumentsSchema, isRoute, type Operation } from "../operations/operation";
import { ALL_SCOPES, SCOPE_DESCRIPTIONS } from "../domain/accounts";
import { anchorOf } from "./markdown";

/** docs/api.md, from the operation list (src/operations/index.ts): the route table, then each operation in full. */

const AREAS: Record<Operation["tag"], string> = {
  jobs: "Jobs and captures",
  sites: "Sites: discovering pages",
  runs: "Runs, projects and baselines",
  catalog: "The catalog",
  account: "Account, keys and plans",
  session: "Sign-in, sessions and members",
  playground: "The anonymous playground",
  feedback: "Feedback",
  webhooks: "Webhooks",
};

/** Documents the HTTP app serves outside /api (not operations: no JSON body, no catalogued refusal of their own). */
export const OUTSIDE_API = [
  {
    method: "GET",
    path: "/healthz",
    auth: "none",
    what: "200 once the process serves: this node's id, its event log (`sqlite` or `postgres`, and the position its read models are at), where files are kept (a directory, or an S3 endpoint and bucket), its browsers (local or remote workers, each with its pages in use)",
  },
  {
    method: "GET",
    path: "/readyz",
    auth: "none",
    what: "200 while this node can take work (its event log answers), else 503 with the reason; on PostgreSQL also every node and how long since each was heard from",
  },
  {
    method: "POST",
    path: "/mcp",
    auth: "per tool",
    what: "the MCP tool server, a fold over the same operations ([agents](agents.md))",
  },
];

/** The Auth column: none, session, or the scope a key needs (a session may stand in for the key where it says so). */
export function authCell(auth: Operation["auth"]): string {
  if (auth.kind === "public") return "none";
  if (auth.kind === "session") return "session";
  if (auth.kind === "optional") return `none (\`${auth.scope}\` adds)`;
  return auth.session ? `\`${auth.scope}\` or session` : `\`${auth.scope}\``;
}

function authInWords(auth: Operation["auth"]): string {
  switch (auth.kind) {
    case "public":
      return "none.";
    case "optional":
      return `none; a key with \`${auth.scope}\` adds to the answer.`;
    case "key":
      return `a Bearer key with \`${auth.scope}\`${auth.session ? ", or a signed-in session instead (its organization)" : ""}.`;
    case "session":
      return `a signed-in session (the \`assay_session\` cookie; a state-changing call carries its CSRF token); API keys are refused${auth.ownKey ? ", except a Bearer key acting on itself alone" : ""}.`;
  }
}

type Props = { properties?: Record<string, TSchema & { description?: string }>; required?: string[] };

function fieldLines(label: string, schema: TSchema | undefined): string[] {
  const { properties = {}, required = [] } = (schema ?? {}) as Props;
  const names = Object.keys(properties);
  if (!names.length) return [];
  return [
    `- **${label}**:`,
    ...names.map(
      (n) =>
        `  - \`${n}\`${required.includes(n) ? " (required)" : ""}${properties[n]!.description ? `: ${properties[n]!.description}` : ""}`,
    ),
  ];
}

const codes = (list: string[]) => list.map((c) => `\`${c}\``).join(", ");
const headingOf = (op: Operation) =>
  isRoute(op) ? `\`${op.http.method.toUpperCase()} ${op.http.path}\`` : `\`${op.mcp!.name}\` (MCP only)`;

function operationSection(op: Operation): string[] {
  const out = [`### ${headingOf(op)}`, "", `${op.summary}.`, ""];
  if (op.description) out.push(op.description, "");
  out.push(`- **Auth**: ${authInWords(op.auth)}`);
  if (op.mcp && op.auth.kind !== "session") out.push(`- **MCP tool**: \`${op.mcp.name}\``);
  if (isRoute(op)) out.push(...fieldLines("Path", op.input.path), ...fieldLines("Query", op.input.query));
  const bodyLabel = op.input.rawBody
    ? "Body (validated by the job planner, in its order)"
    : op.input.form
      ? "Body (JSON, or an HTML form)"
      : "Body";
  out.push(
    ...(isRoute(op) ? fieldLines(bodyLabel, op.input.body) : fieldLines("Arguments", argumentsSchema(op.input))),
  );
  if (isRoute(op)) {
    const fields = Object.keys(((op.output ?? {}) as Props).properties ?? {});
    const type = op.http.contentType ? ` (\`${op.http.contentType}\`)` : "";
    out.push(
      `- **Answers ${op.http.status ?? 200}**${type}: ${op.http.returns}${fields.length ? ` Fields: ${codes(fields)}.` : ""}`,
    );
    for (const [status, other] of Object.entries(op.http.otherErrors ?? {}))
      out.push(`- **Also answers ${status}**: ${other.description}`);
  }
  const errors = isRoute(op) ? httpErrors(op) : mcpErrors(op);
  if (errors.length) out.push(`- **Errors**: ${codes(errors)}`);
  return [...out, ""];
}

export function apiMarkdown(): string {
  const routes = operations.filter(isRoute);
  const toolsOnly = operations.filter((op) => !isRoute(op));
  const out = [
    "# HTTP API",
    "",
    "<!-- Generated from the operation list (src/operations/index.ts) by `npm run docs`; do not edit by hand. -->",
    "",
    "Plain HTTP and JSON under `/api`; `GET /api/openapi.json` is the same list as OpenAPI 3.1, and the MCP server at",
    "`/mcp` offers the same operations as tools ([agents](agents.md)). Every refusal is",
    "`{ code, title, message, developerMessage, details?, requestId }` (5xx add `retryable`), with a code from",
    "[errors.md](errors.md); any route may also answer `INTERNAL_ERROR`.",
    "",
    "## Authentication",
    "",
    "`Authorization: Bearer <API_KEY>`. A key's scopes are fixed when it is minted; the signup key has all of them",
    "([people and keys](people-and-keys.md) says how keys are minted, rotated and revoked, and how sessions work):",
    "",
    "| Scope | Allows |",
    "|---|---|",
    ...ALL_SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`),
    "",
    "In the Auth column, `none` needs no credential, a scope needs a key holding it (`or session`: a signed-in",
    "session may call it instead), and `session` needs a signed-in session and refuses keys.",
    "",
    "## Routes",
    "",
    "| Method | Path | Auth | MCP tool | What |",
    "|---|---|---|---|---|",
    ...OUTSIDE_API.map((r) => `| ${r.method} | \`${r.path}\` | ${r.auth} | | ${r.what} |`),
    ...routes.map(
      (op) =>
        `| ${op.http.method.toUpperCase()} | [\`${op.http.path}\`](#${anchorOf(`${op.http.method} ${op.http.path}`)}) | ${authCell(op.auth)} | ${op.mcp && op.auth.kind !== "session" ? `\`${op.mcp.name}\`` : ""} | ${op.summary} |`,
    ),
    "",
    `MCP tools without a route: ${toolsOnly.map((op) => `[\`${op.mcp!.name}\`](#${anchorOf(`${op.mcp!.name} MCP only`)})`).join(", ")}.`,
    "",
  ];
  for (const [tag, title] of Object.entries(AREAS)) {
    const ops = operations.filter((op) => op.tag === tag);
    if (ops.length) out.push(`## ${title}`, "", ...ops.flatMap(operationSection));
  }
  return out.join("\n");
}
