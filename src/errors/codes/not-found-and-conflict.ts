import type { ErrorEntry } from "../error-entry";

// What the request names does not exist, or its state refuses the change.

/** 404: what the request names is not there (for this caller). */
export const notFound = [
  {
    code: "CUSTOMER_NOT_FOUND",
    status: 404,
    title: "Customer not found",
    guidance: "No organization has that customerId. Omit customerId to act as your own organization.",
  },
  {
    code: "FEEDBACK_CHECK_NOT_IN_JOB",
    status: 404,
    title: "Check not in job",
    guidance: "No result row for that validationId on that jobId.",
  },
  {
    code: "FEEDBACK_NOT_FOUND",
    status: 404,
    title: "Feedback not found",
    guidance: "No feedback recorded for this result; treat it as pending review.",
  },
  {
    code: "FEEDBACK_SET_UNKNOWN",
    status: 404,
    title: "Feedback set unknown",
    guidance: "No active feedback set has this id.",
  },
  {
    code: "JOB_NOT_FOUND",
    status: 404,
    title: "Job not found",
    guidance: "Unknown jobId, or the job belongs to another organization.",
  },
  {
    code: "MEMBER_NOT_FOUND",
    status: 404,
    title: "Member not found",
    guidance:
      "No member of the session's organization has this personId (details.personId); a person of another organization is answered the same. See GET /api/members.",
    addedBySpecGap: true,
  },
  {
    code: "PLAYGROUND_RUN_NOT_FOUND",
    status: 404,
    title: "Playground run not found",
    guidance: "Unknown or expired playground run id (runs live in memory for a limited time).",
  },
  {
    code: "ROUTE_NOT_FOUND",
    status: 404,
    title: "Route not found",
    guidance: "No route has this method and path. See GET /api/openapi.json or /llms.txt.",
    addedBySpecGap: true,
  },
  {
    code: "RUN_NOT_FOUND",
    status: 404,
    title: "Run not found",
    guidance:
      "Unknown runId, a run of another organization, or (for a baseline) a run of another project. See GET /api/runs.",
    addedBySpecGap: true,
  },
  {
    code: "STORAGE_OBJECT_NOT_FOUND",
    status: 404,
    title: "Storage object not found",
    guidance: "No stored object for this customer, job and storage key.",
  },
  {
    code: "VALIDATION_NOT_FOUND",
    status: 404,
    title: "Validation not found",
    guidance:
      "Unknown validation id or slug; details.suggestions maps it to the nearest ids when any are close. See GET /api/validations.",
  },
  {
    code: "WEBHOOK_DELIVERY_NOT_FOUND",
    status: 404,
    title: "Webhook delivery not found",
    guidance:
      "No delivery with this deliveryId to this endpoint (details.deliveryId). See GET /api/webhooks/{endpointId}/deliveries.",
    addedBySpecGap: true,
  },
  {
    code: "WEBHOOK_NOT_FOUND",
    status: 404,
    title: "Webhook endpoint not found",
    guidance:
      "No webhook endpoint with this endpointId in your organization (details.endpointId); another organization's is answered the same. See GET /api/webhooks.",
    addedBySpecGap: true,
  },
] as const satisfies readonly ErrorEntry[];

/** 409: the state of what is named refuses the change. */
export const conflict = [
  {
    code: "ACCOUNT_EXISTS",
    status: 409,
    title: "Account exists",
    guidance:
      "An account exists for this email; signup never returns a credential for an existing account. Sign in and mint a key instead.",
  },
  {
    code: "FEEDBACK_ALREADY_GIVEN",
    status: 409,
    title: "Feedback already given",
    guidance:
      "The set is already completed (or the looks-wrong set was already filed for this job and check); nothing to retry.",
  },
  {
    code: "FEEDBACK_NOT_DUE",
    status: 409,
    title: "Feedback not due",
    guidance: "The set is not currently due for this credential (details.expectedSetId when known).",
  },
  {
    code: "JOB_CHARGE_CONFLICT",
    status: 409,
    title: "Job charge conflict",
    guidance:
      "A ledger charge already exists for this job id under another tenant or amount. An invariant violation; nothing was charged.",
  },
  {
    code: "PLAN_MANAGED_BY_BILLING",
    status: 409,
    title: "Plan managed by the billing provider",
    guidance:
      "The organization's plan is its subscription with the billing provider (details.provider), not Assay's to change. Change the subscription in the billing provider; the new plan shows within ASSAY_PLAN_CACHE_SECONDS. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "RUN_STILL_RUNNING",
    status: 409,
    title: "Run still running",
    guidance:
      "The run has pages not settled yet (details.runId), and only a finished run can be a baseline. Poll GET /api/runs/{runId} until its status is completed or interrupted; nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "LAST_ADMIN",
    status: 409,
    title: "Last admin",
    guidance:
      "The organization's last admin cannot leave, be removed or be demoted (details.personId). Make another member admin first (POST /api/members/{personId}/role). Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "WEBHOOK_LIMIT_REACHED",
    status: 409,
    title: "Webhook endpoint limit reached",
    guidance:
      "The organization has as many webhook endpoints as it may (details.limit, ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION, 20 by default). One endpoint may subscribe to several event types; delete one you no longer use. Nothing was registered.",
    addedBySpecGap: true,
  },
] as const satisfies readonly ErrorEntry[];
