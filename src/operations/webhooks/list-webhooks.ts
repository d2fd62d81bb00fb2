import { Type } from "@sinclair/typebox";
import { CustomerQuery } from "../../contracts/request-parts";
import { Obj } from "../../contracts/schema-kit";
import { WebhookEndpoint } from "../../contracts/webhooks";
import { defineOperation } from "../operation";
import { plural, READ } from "../words";

export const listWebhooks = defineOperation({
  operationId: "listWebhooks",
  tag: "webhooks",
  summary: "Your webhook endpoints (never a secret)",
  description:
    "With a Bearer key (account:read), or a signed-in session instead: the organization's endpoints, oldest first, each with its event types and how many of its deliveries wait, were delivered or were given up. Never a secret.",
  http: { method: "get", path: "/api/webhooks", returns: "The endpoints." },
  mcp: {
    name: "list_webhooks",
    title: "List webhook endpoints",
    description:
      "Your organization's webhook endpoints: id, url, event types, description, when made and when its secret was last rotated, and its deliveries by status. Never a secret. Same as GET /api/webhooks.",
    annotations: { title: "List webhook endpoints", ...READ },
    summary: ({ endpoints }) => `${plural(endpoints.length, "webhook endpoint")}.`,
  },
  auth: { kind: "key", scope: "account:read", session: true },
  input: { query: CustomerQuery },
  output: Obj({ endpoints: Type.Array(WebhookEndpoint) }),
  errors: [],
  example: {},
  handle: (_input, { services, customerId }) => ({ endpoints: services.webhooks.list(customerId) }),
});
