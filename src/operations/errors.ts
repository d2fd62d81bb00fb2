import type { ErrorCode } from "../errors/catalog";
import type { Operation } from "./operation";

/**
 * The codes an operation may answer on each surface: its own, plus those its auth kind and its inputs bring.
 * OpenAPI (x-error-codes) and llms-full.txt print these; INTERNAL_ERROR is added by the documents themselves.
 */

const TENANT: ErrorCode[] = ["INSUFFICIENT_SCOPE", "CUSTOMER_NOT_FOUND", "CUSTOMER_SCOPE_MISMATCH"];
const HTTP_QUERY: ErrorCode[] = ["INVALID_REQUEST_BODY", "INVALID_ENUM_VALUE"];
const HTTP_BODY: ErrorCode[] = ["INVALID_REQUEST_BODY", "REQUEST_TOO_LARGE", "UNKNOWN_FIELD", "MISSING_REQUIRED_FIELD"];
const MCP_ARGUMENTS: ErrorCode[] = [
  "INVALID_REQUEST_BODY",
  "UNKNOWN_FIELD",
  "INVALID_ENUM_VALUE",
  "MISSING_REQUIRED_FIELD",
];

const unique = (codes: ErrorCode[]) => [...new Set(codes)];

export function httpErrors(op: Operation): ErrorCode[] {
  const auth: ErrorCode[] =
    op.auth.kind === "key" || op.auth.kind === "optional"
      ? ["AUTH_REQUIRED", ...TENANT]
      : op.auth.kind === "session"
        ? ["AUTH_REQUIRED", ...(op.http?.method !== "get" ? (["CSRF_TOKEN_INVALID"] as ErrorCode[]) : [])]
        : [];
  const input: ErrorCode[] = [
    ...(op.input.query ? HTTP_QUERY : []),
    ...(op.input.body && !op.input.rawBody ? HTTP_BODY : []),
    ...(op.http?.method !== "get" ? (["REQUEST_TOO_LARGE"] as ErrorCode[]) : []),
  ];
  return unique([...auth, ...input, ...op.errors]);
}

/** Besides AUTH_REQUIRED (a 401 before the tool runs) and INTERNAL_ERROR. */
export function mcpErrors(op: Operation): ErrorCode[] {
  const auth = op.auth.kind === "key" || op.auth.kind === "optional" ? TENANT : [];
  return unique([...(op.input.rawBody ? [] : MCP_ARGUMENTS), ...auth, ...op.errors]);
}
