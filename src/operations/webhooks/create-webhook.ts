import { NewWebhookBody, WebhookEndpointWithSecret } from "../../contracts/webhooks";
import { defineOperation } from "../operation";

export const createWebhook = defineOperation({
  operationId: "createWebhook",
  tag: "webhooks",
  summary: "Register a webhook endpoint; its signing secret is shown once",
  description:
    "Registers an endpoint that Assay POSTs to when an event it subscribes to happens (job.completed: a job settled, whatever its status), instead of polling. Deliveries follow Standard Webhooks: headers webhook-id, webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the secret answered here, shown only once), body { type, timestamp, data }; a delivery not answered 2xx is retried with exponential back-off for 24 hours. The url must be a public http(s) URL (WEBHOOK_URL_INVALID otherwise; checked again at every delivery); an organization has at most ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION endpoints (WEBHOOK_LIMIT_REACHED).",
  http: {
    method: "post",
    path: "/api/webhooks",
    status: 201,
    returns: "The endpoint with its signing secret (whsec_…), shown only here: store it.",
  },
  mcp: {
    name: "create_webhook",
    title: "Register a webhook endpoint",
    description:
      "Registers a webhook endpoint for job.completed (and the run events), so that you are called when a job settles instead of polling get_job or await_email_job. Answers the endpoint with its signing secret (whsec_…), shown only here: verify each delivery's webhook-signature with it (Standard Webhooks). The url must be a public http(s) URL. Same as POST /api/webhooks.",
    annotations: {
      title: "Register a webhook endpoint",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    summary: (e) => `Endpoint ${e.endpointId} registered for ${e.events.join(", ")}; its secret is shown only now.`,
  },
  auth: { kind: "key", scope: "webhooks:write", session: true },
  input: { body: NewWebhookBody, form: true },
  output: WebhookEndpointWithSecret,
  errors: ["WEBHOOK_URL_INVALID", "WEBHOOK_LIMIT_REACHED", "SERVICE_UNAVAILABLE"],
  example: { url: "https://hooks.example.com/assay", events: ["job.completed"], description: "CI" },
  handle: (input, { services, customerId, meta }) =>
    services.webhooks.create(
      customerId,
      { url: input.url, events: input.events, ...(input.description ? { description: input.description } : {}) },
      meta,
    ),
});
