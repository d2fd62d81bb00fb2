import { existsSync, readFileSync } from "node:fs";
import { UsageError } from "../../../../src/cli/program";

/** The subject and selection options `run` and `start` share (see `assay run --help`). */
export interface SourceOptions {
  url?: string;
  html?: string;
  pageUrl?: string;
  email?: string | boolean;
  subject?: string;
  validation?: string[];
  set?: string;
}

/** A job body ready for POST /api/jobs, the message file to deliver when it is an email job with one, and the set chosen for it when it named none. */
export interface JobSource {
  body: Record<string, unknown>;
  emlPath?: string;
  defaultSet?: string;
}

/**
 * What `run` and `start` check when given neither --validation nor --set: for a page the set the docs and the
 * playground start from; for an email the checks every message should pass, transactional (its headers, sender,
 * subject, links, text part and renders; no unsubscribe requirements, which only bulk mail has).
 */
export const DEFAULT_SETS = { page: "web-essentials", email: "transactional" } as const;

/** A parameter value as typed: JSON when it parses (numbers, booleans, arrays), else the text itself. */
function parameterValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `--validation ID` and `--validation ID:name=value`, repeatable: entries naming the same id merge their
 * parameters, so `--validation x:a=1 --validation x:b=2` is one entry `{ id: "x", parameters: { a: 1, b: 2 } }`.
 */
export function parseValidations(specs: string[]): Array<string | { id: string; parameters: Record<string, unknown> }> {
  const order: string[] = [];
  const params = new Map<string, Record<string, unknown>>();
  for (const spec of specs) {
    const colon = spec.indexOf(":");
    const id = (colon < 0 ? spec : spec.slice(0, colon)).trim();
    if (!id) throw new UsageError(`--validation ${JSON.stringify(spec)}: the validation id is missing`);
    if (!params.has(id)) {
      order.push(id);
      params.set(id, {});
    }
    if (colon < 0) continue;
    const assignment = spec.slice(colon + 1);
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new UsageError(`--validation ${JSON.stringify(spec)}: write a parameter as ID:name=value`);
    params.get(id)![assignment.slice(0, eq).trim()] = parameterValue(assignment.slice(eq + 1));
  }
  return order.map((id) => (Object.keys(params.get(id)!).length ? { id, parameters: params.get(id)! } : id));
}

function readText(path: string, what: string): string {
  if (!existsSync(path)) throw new UsageError(`${what} ${path} does not exist`);
  return readFileSync(path, "utf8");
}

/**
 * The job body from the options: exactly one subject (`--url`, `--html` with `--page-url`, `--email`, or a request
 * file holding a whole body); `--validation` and `--set` replace the request file's selection when given, and
 * without them a subject given by option runs its default set (DEFAULT_SETS).
 */
export function jobSource(requestFile: string | undefined, opts: SourceOptions): JobSource {
  const subjects = [
    requestFile !== undefined,
    opts.url !== undefined,
    opts.html !== undefined,
    opts.email !== undefined,
  ].filter(Boolean).length;
  if (subjects !== 1)
    throw new UsageError(
      "give exactly one subject: --url URL, --html FILE --page-url URL, --email [FILE.eml] or a request file",
    );
  const selection: Record<string, unknown> = {};
  if (opts.validation?.length) selection.validations = parseValidations(opts.validation);
  if (opts.set) selection.validationSetId = opts.set;

  if (requestFile !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(readText(requestFile, "request file"));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`request file ${requestFile} is not JSON: ${(e as Error).message}`);
    }
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw new UsageError(`request file ${requestFile} must hold one job body (an object)`);
    if (selection.validations || selection.validationSetId) {
      delete (body as Record<string, unknown>).validations;
      delete (body as Record<string, unknown>).validationSetId;
    }
    return { body: { ...(body as Record<string, unknown>), ...selection } };
  }
  const defaultSet =
    selection.validations || selection.validationSetId
      ? undefined
      : DEFAULT_SETS[opts.email !== undefined ? "email" : "page"];
  if (defaultSet) selection.validationSetId = defaultSet;
  const chosen = defaultSet ? { defaultSet } : {};
  if (opts.url !== undefined) return { body: { type: "url", url: opts.url, ...selection }, ...chosen };
  if (opts.html !== undefined) {
    if (!opts.pageUrl)
      throw new UsageError("--html needs --page-url URL: the address the page's relative links resolve against");
    return {
      body: { type: "static_html", html: readText(opts.html, "HTML file"), baseUrl: opts.pageUrl, ...selection },
      ...chosen,
    };
  }
  const emlPath = typeof opts.email === "string" ? opts.email : undefined;
  if (emlPath) readText(emlPath, "message file");
  return {
    body: { type: "email", ...(opts.subject ? { subject: opts.subject } : {}), ...selection },
    ...(emlPath ? { emlPath } : {}),
    ...chosen,
  };
}
