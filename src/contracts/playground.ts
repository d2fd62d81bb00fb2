import { Type } from "@sinclair/typebox";
import { Finding, Severity } from "../../events/jobs";
import { CaptureSize } from "./catalog";
import { Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";

/** The playground's run: its request and its answer (the playground service reads and builds both). */

/** A playground run's body: a public URL, or pasted HTML with the address it stands for; it becomes a job request (the planner's codes). */
export const PlaygroundRunBody = Type.Object(
  {
    url: Type.Optional(Type.String({ description: "A public http(s) URL to check. Send url, or html with baseUrl." })),
    html: Type.Optional(Type.String({ description: "Pasted HTML to check, rendered as if served at baseUrl." })),
    baseUrl: Type.Optional(
      Type.String({
        description: "With html: the public address the HTML stands for (relative links resolve against it).",
      }),
    ),
    validations: Type.Optional(
      Type.Array(Type.String(), {
        description: "Some of the playground's checks (default: all of them); another id is INVALID_ENUM_VALUE.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const PlaygroundRun = Obj(
  {
    runId: Str(),
    type: literals(["url", "static_html"] as const),
    subject: Obj(
      { url: Opt(Str()), baseUrl: Opt(Str()), htmlBytes: Opt(Int()) },
      "The subject: the URL, or the pasted HTML's address and size.",
    ),
    viewport: CaptureSize,
    status: literals(["completed", "interrupted"] as const),
    interruption: Opt(Type.String({ description: "Why no check could read the subject (it could not be captured)." })),
    summary: Obj({ pass: Int(), fail: Int(), error: Int() }),
    results: Type.Array(
      Obj({
        validationId: Str(),
        name: Str(),
        verdict: literals(["pass", "fail", "error"] as const),
        severity: Severity,
        reason: Opt(Type.String({ description: "On fail: what to fix and where. On error: the cause." })),
        findings: Type.Array(Finding),
      }),
    ),
    screenshotUrl: Nullable(
      Type.String({
        description: "The page as captured at viewport; kept as long as the run. null when the capture failed.",
      }),
    ),
    createdAt: Str(),
    expiresAt: Type.String({
      description: "After this the run and its screenshot are gone (PLAYGROUND_RUN_NOT_FOUND).",
    }),
  },
  "An anonymous playground run: kept in memory until expiresAt, spending no credits.",
);
