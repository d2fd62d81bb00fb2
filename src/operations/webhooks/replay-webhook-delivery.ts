import { CustomerQuery } from "../../contracts/request-parts";
import { DeliveryRef, WebhookDelivery } from "../../contracts/webhooks";
import { defineOperation } from "../operation";

export const replayWebhookDelivery = defineOperation({
  operationId: "replayWebhookDelivery",
  tag: "webhooks",
  summary: "Deliver a webhook delivery again",
  description:
    "Queues the delivery again, due now, with a new retry window: delivered or given up, it is attempted once more with the same webhook-id and payload, signed with the endpoint's current secret. Another organization's endpoint is WEBHOOK_NOT_FOUND; a delivery that is not this endpoint's is WEBHOOK_DELIVERY_NOT_FOUND.",
  http: {
    method: "post",
    path: "/api/webhooks/{endpointId}/deliveries/{deliveryId}/replay",
    status: 202,
    returns: "The delivery, pending: attempted within a few seconds.",
  },
  mcp: {
    name: "replay_webhook_delivery",
    title: "Replay a webhook delivery",
    description:
      "Delivers one webhook delivery again (same webhook-id and payload, signed with the current secret), due now with a new retry window: after your receiver was down, or to test it. Same as POST /api/webhooks/{endpointId}/deliveries/{deliveryId}/replay.",
    annotations: {
      title: "Replay a webhook delivery",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    summary: (d) => `Delivery ${d.deliveryId} queued again; list_webhook_deliveries shows its next attempt.`,
  },
  auth: { kind: "key", scope: "webhooks:write", session: true },
  input: { path: DeliveryRef, query: CustomerQuery },
  output: WebhookDelivery,
  errors: ["WEBHOOK_NOT_FOUND", "WEBHOOK_DELIVERY_NOT_FOUND"],
  example: { endpointId: "whe_0000000000000000000000", deliveryId: "msg_00000000000000000000000000000000" },
  handle: (input, { services, customerId, meta }) =>
    services.webhooks.replay(customerId, input.endpointId, input.deliveryId, meta),
});
