import { Type } from "@sinclair/typebox";
import { ErrorTable, ErrorView } from "../../contracts/errors";
import { Obj } from "../../contracts/schema-kit";
import { enumOf } from "../../contracts/job-request";
import { errorCatalog, type ErrorCode } from "../../errors/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const ERROR_CODES = errorCatalog.map((e) => e.code);

const ExplainErrorInput = Type.Object(
  { code: Type.Optional(enumOf(ERROR_CODES, "An error code; omit it to list every code.")) },
  { additionalProperties: false },
);

const OneError = Obj({ error: ErrorView });

export const explainError = defineOperation({
  operationId: "explainError",
  tag: "catalog",
  summary: "One error code explained, or the whole table",
  mcp: {
    name: "explain_error",
    title: "Explain an error code",
    description:
      "The error table: each code's HTTP status, title and what to do. No arguments lists every code; with code, that one. Same table as GET /api/errors.",
    annotations: { title: "Explain an error code", ...READ },
    summary: (data) =>
      "error" in data
        ? `${data.error.code} (HTTP ${data.error.httpStatus}): ${data.error.guidance}`
        : `${plural(data.errors.length, "error code")}; branch on code, never on message.`,
  },
  auth: { kind: "public" },
  input: { body: ExplainErrorInput },
  output: Type.Union([OneError, ErrorTable]),
  errors: [],
  example: { code: "AUTH_REQUIRED" },
  handle: (input, { services }) =>
    input.code ? services.catalog.error(input.code as ErrorCode) : services.catalog.errors(),
});
