import { Type } from "@sinclair/typebox";
import { Bool, Int, Obj, Opt, Str } from "./schema-kit";

/** The error body every surface returns (HTTP body; MCP tool errors' structuredContent). */
export const ErrorBodySchema = Type.Object(
  {
    code: Type.String({ description: "Stable: branch on it." }),
    title: Type.String(),
    message: Type.String({ description: "What went wrong in this case; may be reworded." }),
    developerMessage: Type.String({ description: "What to do about it." }),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "The specifics, documented per code." }),
    ),
    requestId: Type.String(),
    retryable: Type.Optional(Type.Boolean({ description: "5xx only: whether the same request may succeed later." })),
  },
  { additionalProperties: false },
);

/** An entry of the error catalog (src/errors/catalog.ts) as GET /api/errors and explain_error serve it. */
export const ErrorView = Obj({ code: Str(), httpStatus: Int(), title: Str(), guidance: Str(), retryable: Opt(Bool()) });

export const ErrorTable = Obj({ errors: Type.Array(ErrorView) });
