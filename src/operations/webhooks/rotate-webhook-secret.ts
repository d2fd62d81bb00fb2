import { CustomerQuery } from "../../contracts/request-parts";
import { EndpointRef, WebhookEndpointWithSecret } from "../../contracts/webhooks";
import { defineOperation } from "../operation";

export const rotateWebhookSecret = defineOperation({
  operationId: "rotateWebhookSecret",
  tag: "webhooks",
  summary: "Rotate a webhook endpoint's signing secret; the new one is shown once",
  description:
    "A new signing secret for the endpoint, shown only here. Every delivery attempted from now on (retries and replays too) is signed with it alone: the previous secret no longer verifies. Another organization's endpoint is WEBHOOK_NOT_FOUND, as a missing one.",
  http: {
    method: "post",
    path: "/api/webhooks/{endpointId}/rotate-secret",
    returns: "The endpoint with its new signing secret, shown only here.",
  },
  mcp: {
    name: "rotate_webhook_secret",
    title: "Rotate a webhook secret",
    description:
      "A new signing secret (whsec_…) for one of your webhook endpoints, shown only here; deliveries from now on are signed with it alone. Same as POST /api/webhooks/{endpointId}/rotate-secret.",
    annotations: {
      title: "Rotate a webhook secret",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    summary: (e) => `Endpoint ${e.endpointId} has a new secret, shown only now; the previous one no longer verifies.`,
  },
  auth: { kind: "key", scope: "webhooks:write", session: true },
  input: { path: EndpointRef, query: CustomerQuery },
  output: WebhookEndpointWithSecret,
  errors: ["WEBHOOK_NOT_FOUND"],
  example: { endpointId: "whe_0000000000000000000000" },
  handle: (input, { services, customerId, meta }) => services.webhooks.rotateSecret(customerId, input.endpointId, meta),
});
