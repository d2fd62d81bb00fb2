import { Type, type Static } from "@sinclair/typebox";
import { eventType, Id, Instant, type EventData } from "./shared";

/** What an endpoint may subscribe to: a job settled, a run completed, a run with new failures against its baseline. */
export const WebhookEventType = Type.Union([
  Type.Literal("job.completed"),
  Type.Literal("run.completed"),
  Type.Literal("run.regressed"),
]);
export type WebhookEventName = Static<typeof WebhookEventType>;

/**
 * The random half of an endpoint's signing secret: the secret is an HMAC of the server's signing secret over the
 * endpoint's id and this nonce (src/domain/webhooks.ts), so the log can say which secret is current without holding it.
 */
const SecretNonce = Type.String({ pattern: "^[A-Za-z0-9_-]{22,64}$" });

/**
 * Stream `webhooks-<customerId>`: the organization's endpoints, one stream, so that the number it may have is decided
 * against the stream's version.
 */
export const WebhookEndpointAdded = eventType(
  "WebhookEndpointAdded",
  Type.Object(
    {
      endpointId: Id,
      customerId: Id,
      url: Type.String({ maxLength: 2000 }),
      events: Type.Array(WebhookEventType, { minItems: 1 }),
      description: Type.Optional(Type.String({ maxLength: 200 })),
      secretNonce: SecretNonce,
    },
    { additionalProperties: false },
  ),
);
export type WebhookEndpointAddedData = EventData<typeof WebhookEndpointAdded>;

/** Stream `webhooks-<customerId>`: the endpoint receives nothing more; its deliveries not yet made are dropped. */
export const WebhookEndpointRemoved = eventType(
  "WebhookEndpointRemoved",
  Type.Object({ endpointId: Id, customerId: Id }, { additionalProperties: false }),
);

/** Stream `webhooks-<customerId>`: a new secret; every delivery attempted from now on is signed with it alone. */
export const WebhookSecretRotated = eventType(
  "WebhookSecretRotated",
  Type.Object({ endpointId: Id, customerId: Id, secretNonce: SecretNonce }, { additionalProperties: false }),
);

/**
 * Stream `webhook-delivery-<deliveryId>`: one attempt to deliver, and what the delivery is after it: `delivered` (the
 * endpoint answered 2xx), `retrying` (at `nextAttemptAt`), or `failed` (retried for the whole window: given up). A
 * delivery itself is not an event: the log event it announces (a JobSettled) makes it, for every endpoint subscribed
 * then (projections/webhooks.ts). Of the answer only the status and a short excerpt of its body are kept.
 */
export const WebhookDeliveryAttempted = eventType(
  "WebhookDeliveryAttempted",
  Type.Object(
    {
      deliveryId: Id,
      endpointId: Id,
      eventType: WebhookEventType,
      /** 1 for the first attempt, counting on across replays. */
      attempt: Type.Integer({ minimum: 1 }),
      attemptedAt: Instant,
      status: Type.Union([Type.Literal("delivered"), Type.Literal("retrying"), Type.Literal("failed")]),
      httpStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
      /** Why no 2xx came: the network guard's refusal, a time-out, a connection error, a redirect not followed. */
      error: Type.Optional(Type.String({ maxLength: 500 })),
      responseExcerpt: Type.Optional(Type.String({ maxLength: 200 })),
      nextAttemptAt: Type.Optional(Instant),
    },
    { additionalProperties: false },
  ),
);
export type WebhookDeliveryAttemptedData = EventData<typeof WebhookDeliveryAttempted>;

/** Stream `webhook-delivery-<deliveryId>`: delivered again from now, with a new retry window (by a key or a person). */
export const WebhookDeliveryReplayed = eventType(
  "WebhookDeliveryReplayed",
  Type.Object({ deliveryId: Id, endpointId: Id }, { additionalProperties: false }),
);

export const webhookEvents = [
  WebhookEndpointAdded,
  WebhookEndpointRemoved,
  WebhookSecretRotated,
  WebhookDeliveryAttempted,
  WebhookDeliveryReplayed,
] as const;
