import { Type, type Static, type TObject, type TSchema, type TUnknown } from "@sinclair/typebox";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ErrorCode } from "../errors/catalog";
import type { Scope } from "../domain/accounts";
import type { RequestMeta } from "../services/context";
import type { Services } from "../services/facade";
import type { Principal } from "../services/accounts";
import type { SessionPrincipal } from "../services/sessions";

/**
 * One operation, declared once: the HTTP app, the MCP server and the OpenAPI document are folds over the
 * list in ./index.ts. A new operation is one file under src/operations/<area>/ and one line in that list.
 */

/**
 * public: no key. key: a Bearer key holding `scope`, acting for its own organization or the `customerId` it names;
 * with `session`, a signed-in session sent without a key may call it too (HTTP only), for its own organization.
 * optional: works without a key; a key (with `scope`) adds to it, and `needsKey` says which arguments need one.
 * session: a signed-in session (its cookie, and its CSRF token on a state-changing call); API keys are refused,
 * except that with `ownKey` a Bearer key may call it to act on itself alone (the handler gets it as `call.key`).
 * Session operations are HTTP only: MCP never offers them.
 */
export type Auth =
  | { kind: "public" }
  | { kind: "key"; scope: Scope; session?: true }
  | { kind: "optional"; scope: Scope; needsKey?(args: Record<string, unknown>): boolean }
  | { kind: "session"; ownKey?: boolean };

type Tag = "catalog" | "account" | "session" | "jobs" | "runs" | "sites" | "playground" | "feedback" | "webhooks";

interface Inputs {
  path?: TObject;
  query?: TObject;
  body?: TObject;
  /**
   * The body goes to the handler as sent, unvalidated: the job operations' bodies are validated by the planner,
   * in its documented order, with its codes (src/domain/job-request.ts).
   */
  rawBody?: boolean;
  /**
   * The body may also come as an HTML form (application/x-www-form-urlencoded): OAuth clients and plain pages send
   * forms. true: each field is the body field of its name; a function: builds the body from fields the body schema
   * cannot name one to one (the feedback form's per-question answers), then the body schema reads it as JSON.
   */
  form?: true | ((fields: URLSearchParams) => Record<string, unknown>);
}

/** What a handler knows about its call, whichever surface it came through. */
export interface Call {
  services: Services;
  requestId: string;
  /** Who asked, on which surface: a key's operations carry the key as actor, the others the system. */
  meta: RequestMeta;
  /** key operations: the organization the surface authorized before the handler ran. */
  customerId: string;
  /** optional operations: whether a key came with the call. */
  hasKey: boolean;
  /** session operations (and key operations open to a session): the signed-in person, resolved by the surface before the handler ran (null: see `key`). */
  session: SessionPrincipal | null;
  /** HTTP: the request's Cookie header, for an operation that keeps a cookie of its own (the OpenID sign-in's state). */
  cookie: string | null;
  /** session operations with `ownKey`, called with a Bearer key instead of a session: that key. */
  key: Principal | null;
  /** The client's address, when the surface knows it: per-address limits (signup) read it; it is never logged as an event. */
  clientAddress?: string;
  /**
   * Authorizes the call's key for the organization named (see ./authorize.ts; a function is read after the key
   * and scope passed). Surfaces call it for key operations; optional ones call it when they need the key.
   */
  authorize(customerId: unknown): { customerId: string; meta: RequestMeta };
  /** The operations this surface was folded from (the OpenAPI document describes them). */
  operations: readonly Operation[];
  signal?: AbortSignal;
}

interface ImageBlock {
  type: "image";
  data: string;
  mimeType: string;
}

/** A result with extra MCP content blocks beside its data (fetch_capture's image). */
export class WithContent<T> {
  constructor(
    readonly data: T,
    readonly content: ImageBlock[],
  ) {}
}

export interface Operation<I = any, O = any> {
  operationId: string;
  tag: Tag;
  /** One line, the OpenAPI summary. */
  summary: string;
  description?: string;
  http?: {
    method: "get" | "post" | "patch" | "delete";
    /** OpenAPI style: /api/validations/{idOrSlug}. */
    path: string;
    /** The success status (200 unless said). */
    status?: number;
    /** A success answered with another status, by its body (POST /api/runs: 202 while the run runs, 200 once done). */
    otherSuccess?: { status: number; returns: string; when(output: O): boolean };
    /** Bodies up to this many bytes (default MAX_BODY_BYTES, src/contracts/limits.ts). */
    maxBodyBytes?: number;
    /** The handler may take longer than an idle connection is kept (a run that waits for its pages): no idle limit. */
    longRunning?: true;
    /** The success response in words (OpenAPI). */
    returns: string;
    /** A non-JSON success body (the handler answers a Response). */
    contentType?: string;
    /** A refusal answered in a shape a standard fixes instead of the catalogued error body (OAuth's), by status. */
    otherErrors?: Record<number, { description: string; schema: TSchema }>;
  };
  mcp?: {
    name: string;
    title: string;
    description: string;
    annotations: ToolAnnotations;
    /** One or two sentences for the model; the data goes in structuredContent. */
    summary(output: O, input: I): string;
  };
  auth: Auth;
  input: Inputs;
  /** The success body's schema; every 2xx JSON body the tests receive is checked against it. Absent for non-JSON bodies. */
  output?: TSchema;
  /** The codes this operation itself may answer; the surfaces add those of its auth and its input (./errors.ts). */
  errors: ErrorCode[];
  /** Valid arguments (the MCP arguments; on HTTP split into path, query and body): the security suite sends them. */
  example: Record<string, unknown>;
  handle(input: I, call: Call): O | WithContent<O> | Response | Promise<O | WithContent<O> | Response>;
}

/** Declares an operation, typing its handler's input and output from its schemas. */
export function defineOperation<const In extends Inputs, Out extends TSchema = TUnknown>(
  op: Operation<InputOf<In>, Static<Out>> & { input: In; output?: Out },
): Operation<InputOf<In>, Static<Out>> {
  return op;
}

type StaticOr<T> = T extends TSchema ? Static<T> : Record<never, never>;
/** The signed-in session of a session operation's call (the surface resolved it before the handler ran). */
export function sessionOf(call: Call): SessionPrincipal {
  if (!call.session) throw new Error("a session operation ran without a session");
  return call.session;
}

type InputOf<In extends Inputs> = In["rawBody"] extends true
  ? any
  : StaticOr<In["path"]> & StaticOr<In["query"]> & StaticOr<In["body"]>;

/** The MCP arguments: the merge of the path, query and body schemas (the one schema itself when there is one). */
export function argumentsSchema(input: Inputs): TObject {
  const parts = [input.path, input.query, input.body].filter((s): s is TObject => !!s);
  if (parts.length === 1) return parts[0]!;
  return Type.Object(Object.assign({}, ...parts.map((p) => p.properties)), { additionalProperties: false });
}

export type ToolOperation = Operation & { mcp: NonNullable<Operation["mcp"]> };
export type RouteOperation = Operation & { http: NonNullable<Operation["http"]> };
export const isTool = (op: Operation): op is ToolOperation => !!op.mcp && op.auth.kind !== "session";
export const isRoute = (op: Operation): op is RouteOperation => !!op.http;
