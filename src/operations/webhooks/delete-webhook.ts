import { CustomerQuery } from "../../contracts/request-parts";
import { Obj, Str } from "../../contracts/schema-kit";
import { EndpointRef } from "../../contracts/webhooks";
import { defineOperation } from "../operation";

export const deleteWebhook = defineOperation({
  operationId: "deleteWebhook",
  tag: "webhooks",
  summary: "Delete a webhook endpoint",
  description:
    "The endpoint receives nothing more, and its deliveries not yet made (or being retried) are dropped with its delivery log. Another organization's endpoint is WEBHOOK_NOT_FOUND, as a missing one.",
  http: { method: "delete", path: "/api/webhooks/{endpointId}", returns: "The endpoint, deleted." },
  mcp: {
    name: "delete_webhook",
    title: "Delete a webhook endpoint",
    description:
      "Deletes one of your organization's webhook endpoints: it receives nothing more, and its pending deliveries are dropped. Same as DELETE /api/webhooks/{endpointId}.",
    annotations: {
      title: "Delete a webhook endpoint",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    summary: (d) => `Endpoint ${d.endpointId} deleted.`,
  },
  auth: { kind: "key", scope: "webhooks:write", session: true },
  input: { path: EndpointRef, query: CustomerQuery },
  output: Obj({ endpointId: Str(), removedAt: Str() }),
  errors: ["WEBHOOK_NOT_FOUND"],
  example: { endpointId: "whe_0000000000000000000000" },
  handle: (input, { services, customerId, meta }) => services.webhooks.remove(customerId, input.endpointId, meta),
});
