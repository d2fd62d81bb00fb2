import { Type } from "@sinclair/typebox";
import { JobRequest } from "../../contracts/job-request";
import { Int, Obj, Opt, Str } from "../../contracts/schema-kit";
import { JobType } from "../../contracts/catalog";
import { PriceLine, Quote, SkippedCheck } from "../../contracts/job";
import { ErrorBodySchema } from "../../contracts/errors";
import { AppError } from "../../errors/app-error";
import { defineOperation } from "../operation";
import { plural } from "../words";
import { customerIdOf } from "../authorize";
import { STATIC_HTML_EXAMPLE } from "./examples";

const Plan = Obj(
  {
    type: JobType,
    validationSetId: Opt(Str()),
    lines: Type.Array(PriceLine),
    totalCredits: Int(),
    skipped_validations: Type.Array(SkippedCheck),
  },
  "What would run and its price, without a balance.",
);

const JobRequestCheck = Type.Union([
  Obj({ ok: Type.Literal(true), quote: Quote }),
  Obj({ ok: Type.Literal(true), plan: Plan }),
  Obj({ ok: Type.Literal(false), httpStatus: Int(), error: ErrorBodySchema }),
]);

export const checkJobRequest = defineOperation({
  operationId: "checkJobRequest",
  tag: "jobs",
  summary: "Whether a job body would be accepted, and its quote with a key",
  mcp: {
    name: "check_job_request",
    title: "Check a job request",
    description:
      "Runs the full pre-pricing validation of a job body and says whether it would be accepted, and if not the exact error (code, message, details) POST /api/jobs would answer. With an API key it also gives the quote (price, balance, sufficient). Creates nothing and charges nothing. A url job's host is resolved (DNS) to check it is public.",
    annotations: {
      title: "Check a job request",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    summary: (data) => {
      if (!data.ok)
        return `Would be refused: ${(data.error as { code: string }).code} (HTTP ${data.httpStatus}): ${(data.error as { message: string }).message}`;
      if ("quote" in data) {
        const q = data.quote;
        return `Accepted as sent: ${q.totalCredits} credits; balance ${q.balance}${q.sufficient ? "" : ` (short by ${q.shortfall}: run_job would be refused with INSUFFICIENT_CREDITS)`}.`;
      }
      const p = data.plan;
      return `Accepted as sent: ${plural(p.lines.length, "check")} for ${p.totalCredits} credits${p.skipped_validations.length ? `, ${p.skipped_validations.length} skipped for missing parameters` : ""}. Send an API key for a quote against your balance.`;
    },
  },
  auth: { kind: "optional", scope: "jobs:write" },
  input: { body: JobRequest, rawBody: true },
  output: JobRequestCheck,
  errors: [],
  example: STATIC_HTML_EXAMPLE,
  async handle(body, call) {
    // The key's refusals are the call's; the body's are the answer.
    const customerId = call.hasKey ? call.authorize(customerIdOf(body)).customerId : undefined;
    try {
      return { ok: true as const, ...(await call.services.quotes.quote(body, customerId)) };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return { ok: false as const, httpStatus: e.status, error: e.toBody(call.requestId) };
    }
  },
});
