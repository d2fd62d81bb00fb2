import { Type, type Static } from "@sinclair/typebox";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhooks";
import { enumOf } from "./job-request";
import { customerId } from "./request-parts";
import { Int, literals, Nullable, Obj, Str } from "./schema-kit";

/** Webhook endpoints and their deliveries, as the webhook operations take and answer them and the service builds them. */

const EventTypes = Type.Array(
  enumOf(
    WEBHOOK_EVENT_TYPES,
    "job.completed (a job settled), run.completed or run.regressed (a run with new failures).",
  ),
  { minItems: 1, uniqueItems: true, description: "The event types this endpoint receives." },
);

export const NewWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        "Where deliveries are POSTed: a public http(s) URL (private, loopback and internal addresses are refused, at registration and at every delivery).",
    }),
    events: EventTypes,
    description: Type.Optional(
      Type.String({ maxLength: 200, description: "What the endpoint is for, to tell endpoints apart." }),
    ),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

export const EndpointRef = Type.Object(
  { endpointId: Type.String({ minLength: 1, description: "The endpoint's id (whe_…)." }) },
  { additionalProperties: false },
);

export const DeliveryRef = Type.Object(
  {
    endpointId: Type.String({ minLength: 1, description: "The endpoint's id (whe_…)." }),
    deliveryId: Type.String({ minLength: 1, description: "The delivery's id (msg_…), its webhook-id header." }),
  },
  { additionalProperties: false },
);

export const WebhookEndpoint = Obj({
  endpointId: Str(),
  url: Str(),
  events: Type.Array(literals(WEBHOOK_EVENT_TYPES)),
  description: Nullable(Str()),
  createdAt: Str(),
  secretRotatedAt: Nullable(Str("When the secret was last rotated; null if never.")),
  deliveries: Obj(
    { pending: Int(), delivered: Int(), failed: Int() },
    "How many of its deliveries wait (to be attempted or retried), were delivered, or were given up.",
  ),
});
export type WebhookEndpointView = Static<typeof WebhookEndpoint>;

/** An endpoint with its signing secret: answered only when it is made (registration, rotation). */
export const WebhookEndpointWithSecret = Obj(
  {
    ...WebhookEndpoint.properties,
    secret: Str(
      "The signing secret (whsec_…), shown only here: verify each delivery's webhook-signature with it (Standard Webhooks).",
    ),
  },
  "The endpoint and its signing secret, shown only here: store it where your receiver reads it.",
);

export const WebhookAttempt = Obj({
  attempt: Int(),
  attemptedAt: Str(),
  status: literals(["delivered", "retrying", "failed"] as const),
  httpStatus: Nullable(Int()),
  error: Nullable(Str("Why no 2xx came: the network guard's refusal, a time-out, a connection error.")),
  responseExcerpt: Nullable(Str("The first characters of the answer's body; the rest is not kept.")),
  nextAttemptAt: Nullable(Str()),
});

export const WebhookDelivery = Obj({
  deliveryId: Str("Its webhook-id header: the same on every attempt and replay, so a receiver can deduplicate."),
  endpointId: Str(),
  eventType: literals(WEBHOOK_EVENT_TYPES),
  subjectId: Str("What it announces: the job's id for job.completed."),
  status: literals(["pending", "delivered", "failed"] as const),
  createdAt: Str("When the event it announces happened: the payload's timestamp."),
  attemptCount: Int(),
  nextAttemptAt: Nullable(Str()),
  attempts: Type.Array(WebhookAttempt, { description: "The latest attempts (at most 20), oldest first." }),
});
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;
