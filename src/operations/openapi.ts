import { JobRequest } from "../contracts/job-request";
import { ErrorBodySchema } from "../contracts/errors";
import { jsonSchemaOf } from "../contracts/schema-kit";
import { MAX_BODY_BYTES } from "../contracts/limits";
import { errorEntry, type ErrorCode } from "../errors/catalog";
import { httpErrors } from "./errors";
import { isRoute, type Operation, type RouteOperation } from "./operation";
import pkg from "../../package.json";

/**
 * /api/openapi.json: OpenAPI 3.1, a fold over the operations with an HTTP method and path: their schemas,
 * and for each the catalogued error codes it can answer (grouped by HTTP status, as an enum on `code`).
 */

function parametersOf(route: RouteOperation) {
  const out: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ["path", route.input.path],
    ["query", route.input.query],
  ] as const) {
    if (!schema) continue;
    const required = new Set(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties)) {
      const json = jsonSchemaOf(prop);
      const description = json.description;
      delete json.description;
      out.push({
        name,
        in: where,
        required: where === "path" || required.has(name),
        ...(description ? { description } : {}),
        schema: json,
      });
    }
  }
  return out;
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorEntry(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((c) => `\`${c}\`: ${errorEntry(c).guidance}`).join("\n\n"),
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/Error" },
                  { type: "object", properties: { code: { type: "string", enum: list } } },
                ],
              },
            },
          },
        },
      ]),
  );
}

/** Adds the refusals a standard shapes (OAuth's) beside the catalogued ones of the same status: either body may come. */
function withOtherErrors(responses: Record<string, any>, other: NonNullable<Operation["http"]>["otherErrors"]) {
  for (const [status, { description, schema }] of Object.entries(other ?? {})) {
    const catalogued = responses[status];
    responses[status] = catalogued
      ? {
          description: `${description}\n\n${catalogued.description}`,
          content: {
            "application/json": {
              schema: { oneOf: [jsonSchemaOf(schema), catalogued.content["application/json"].schema] },
            },
          },
        }
      : { description, content: { "application/json": { schema: jsonSchemaOf(schema) } } };
  }
  return responses;
}

const redirects = (status: number | undefined) => status !== undefined && status >= 300 && status < 400;

export function openApiDocument(operations: readonly Operation[], baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of operations.filter(isRoute)) {
    const { http, auth } = route;
    const codes = [...new Set<ErrorCode>([...httpErrors(route), "INTERNAL_ERROR"])];
    const scope = auth.kind === "key" || auth.kind === "optional" ? auth.scope : undefined;
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security:
        auth.kind === "key"
          ? [{ bearer: [scope!] }, ...(auth.session ? [{ session: [] }] : [])]
          : auth.kind === "session"
            ? [{ session: [] }, ...(auth.ownKey ? [{ bearer: [] }] : [])]
            : [],
      ...(scope ? { "x-scope": scope } : {}),
      "x-error-codes": codes,
    };
    const parameters = parametersOf(route);
    if (parameters.length) op.parameters = parameters;
    const body = route.input.body;
    if (body) {
      const schema = body === JobRequest ? { $ref: "#/components/schemas/JobRequest" } : jsonSchemaOf(body);
      op.requestBody = {
        required: true,
        description: `${route.input.form === true ? "JSON or an HTML form" : "JSON"}, at most ${http.maxBodyBytes ?? MAX_BODY_BYTES} bytes.`,
        // A form read by a function of its own is the dashboard's; its fields are not the body schema's.
        content: {
          "application/json": { schema },
          ...(route.input.form === true ? { "application/x-www-form-urlencoded": { schema } } : {}),
        },
      };
    }
    const json = { "application/json": { schema: route.output ? jsonSchemaOf(route.output) : { type: "object" } } };
    op.responses = {
      [String(http.status ?? 200)]: {
        description: http.returns,
        ...(redirects(http.status)
          ? {}
          : http.contentType
            ? { content: { [http.contentType]: { schema: { type: "string", contentMediaType: http.contentType } } } }
            : { content: json }),
      },
      ...(http.otherSuccess
        ? { [String(http.otherSuccess.status)]: { description: http.otherSuccess.returns, content: json } }
        : {}),
      ...withOtherErrors(errorResponses(codes), http.otherErrors),
    };
    (paths[http.path] ??= {})[http.method] = op;
  }
  return {
    openapi: "3.1.0" as const,
    info: {
      title: "Assay API",
      version: pkg.version,
      summary: "Headless QA for webpages and emails.",
      description:
        "One subject per job, one verdict per check: pass, fail (with the reason to fix) or error (the check could not run; refunded). Errors are { code, title, message, developerMessage, details?, requestId } (5xx add retryable); branch on code. The same capabilities are MCP tools at /mcp.",
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: "llms-full.txt: the whole service for agents", url: `${baseUrl}/llms-full.txt` },
    tags: [
      { name: "catalog", description: "Validations, sets and error codes; no key needed." },
      { name: "account", description: "Signup, organization, keys and credits." },
      {
        name: "session",
        description:
          "Sign-in by email link and the session it starts (a cookie; state-changing calls carry its CSRF token).",
      },
      { name: "jobs", description: "Estimate, run and read jobs; screenshots." },
      { name: "sites", description: "A site's pages from its sitemap or a crawl, to check them in one run." },
      {
        name: "runs",
        description:
          "A site or campaign checked as one run, compared with its project's baseline; projects and baselines.",
      },
      {
        name: "playground",
        description:
          "Anonymous runs of a few checks, without an account or credits; limited per session and per address.",
      },
      { name: "feedback", description: "Feedback on verdicts, which earns credits." },
      {
        name: "webhooks",
        description:
          "Endpoints called when a job settles (Standard Webhooks, signed), instead of polling; their delivery logs and replays.",
      },
    ],
    paths,
    components: {
      schemas: { JobRequest: jsonSchemaOf(JobRequest), Error: jsonSchemaOf(ErrorBodySchema) },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "Authorization: Bearer <API_KEY> (assay_sk_…). Scopes are fixed when a key is minted.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "assay_session",
          description:
            "A signed-in session, started by a sign-in link (POST /api/session/email) or, where configured, the OpenID provider (GET /api/session/oidc/start). State-changing requests also carry its csrfToken (GET /api/session) as X-CSRF-Token. API keys are refused.",
        },
      },
    },
  };
}
