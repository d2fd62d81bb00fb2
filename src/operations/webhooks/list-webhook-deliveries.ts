import { Type } from "@sinclair/typebox";
import { customerId } from "../../contracts/request-parts";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { EndpointRef, WebhookDelivery } from "../../contracts/webhooks";
import { defineOperation } from "../operation";
import { plural, READ } from "../words";

const DeliveryPageQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "Page size (1-100, default 20)." }),
    ),
    cursor: Type.Optional(Type.String({ description: "nextCursor of the previous page." })),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

export const listWebhookDeliveries = defineOperation({
  operationId: "listWebhookDeliveries",
  tag: "webhooks",
  summary: "A webhook endpoint's delivery log, newest first",
  description:
    "Each delivery of the endpoint (its webhook-id, the event type and what it announces, its status: pending, delivered or failed, given up after the retry window) with its latest attempts: when, the HTTP status or the error, the start of the answer's body, and when the next attempt is due. Another organization's endpoint is WEBHOOK_NOT_FOUND, as a missing one.",
  http: { method: "get", path: "/api/webhooks/{endpointId}/deliveries", returns: "A page of deliveries." },
  mcp: {
    name: "list_webhook_deliveries",
    title: "List webhook deliveries",
    description:
      "The delivery log of one of your webhook endpoints, newest first: each delivery's status (pending, delivered, failed) and its attempts with HTTP status or error and the next attempt's time. Same as GET /api/webhooks/{endpointId}/deliveries.",
    annotations: { title: "List webhook deliveries", ...READ },
    summary: ({ deliveries }) =>
      `${plural(deliveries.length, "delivery")}, ${deliveries.filter((d) => d.status === "failed").length} given up.`,
  },
  auth: { kind: "key", scope: "account:read", session: true },
  input: { path: EndpointRef, query: DeliveryPageQuery },
  output: Obj({ deliveries: Type.Array(WebhookDelivery), nextCursor: Nullable(Str()) }),
  errors: ["WEBHOOK_NOT_FOUND"],
  example: { endpointId: "whe_0000000000000000000000", limit: 5 },
  handle: (input, { services, customerId }) => services.webhooks.deliveries(customerId, input.endpointId, input),
});
