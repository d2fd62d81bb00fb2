import { createHmac } from "node:crypto";
import { AppError } from "../errors/app-error";
import type { StreamWrite } from "../store/event-log";
import { WebhookEventType, type WebhookDeliveryAttemptedData, type WebhookEndpointAddedData } from "../../events";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../../projections/webhooks";
import { streams } from "./accounts";

/**
 * Webhook endpoints and their deliveries (Standard Webhooks): which endpoints an organization may have, the secret
 * each signs with, and what an attempt to deliver makes of a delivery: delivered, retried after an exponential
 * back-off within a window, or given up. Nothing here decides anything about a job.
 */

/** Every webhook event type an endpoint may subscribe to, in the schema's order. */
export const WEBHOOK_EVENT_TYPES = WebhookEventType.anyOf.map((t) => t.const);

/**
 * An endpoint's signing secret: never stored, derived on any node from the server's signing secret (the share links'
 * one, which nodes share) and the nonce the log holds for it. A rotation records a new nonce, so a new secret.
 */
export function webhookSecret(serverSecret: Buffer, endpointId: string, secretNonce: string): string {
  const key = createHmac("sha256", serverSecret).update(`webhook\n${endpointId}\n${secretNonce}`).digest();
  return `whsec_${key.toString("base64")}`;
}

export const endpointNotFound = (endpointId: string) =>
  new AppError("WEBHOOK_NOT_FOUND", `No webhook endpoint ${endpointId} in this organization.`, { endpointId });

/** Decides registering an endpoint, within the number an organization may have (counted on its endpoints' stream). */
export function decideAddEndpoint(
  endpoint: WebhookEndpointAddedData,
  held: { count: number; limit: number; version: number },
): StreamWrite[] {
  if (held.count >= held.limit)
    throw new AppError(
      "WEBHOOK_LIMIT_REACHED",
      `This organization has ${held.count} webhook endpoints, as many as it may (${held.limit}). Delete one first.`,
      { limit: held.limit },
    );
  return [
    {
      streamId: streams.webhooks(endpoint.customerId),
      expectedVersion: held.version,
      events: [{ type: "WebhookEndpointAdded", data: endpoint }],
    },
  ];
}

export function decideRemoveEndpoint(
  customerId: string,
  endpointId: string,
  endpoint: WebhookEndpointRow | null,
): StreamWrite[] {
  if (!endpoint) throw endpointNotFound(endpointId);
  return [
    {
      streamId: streams.webhooks(customerId),
      expectedVersion: "any",
      events: [{ type: "WebhookEndpointRemoved", data: { endpointId, customerId } }],
    },
  ];
}

export function decideRotateSecret(
  customerId: string,
  endpointId: string,
  endpoint: WebhookEndpointRow | null,
  secretNonce: string,
): StreamWrite[] {
  if (!endpoint) throw endpointNotFound(endpointId);
  return [
    {
      streamId: streams.webhooks(customerId),
      expectedVersion: "any",
      events: [{ type: "WebhookSecretRotated", data: { endpointId, customerId, secretNonce } }],
    },
  ];
}

/** How a failed delivery is retried: after `baseSeconds`, doubling each time, for `windowSeconds` from its start. */
export interface RetrySchedule {
  baseSeconds: number;
  windowSeconds: number;
}

/** What is kept of an answer's body: its first characters, on one line, no control characters. */
export const EXCERPT_CHARS = 200;
/** What is kept of why an attempt got no answer. */
const ERROR_CHARS = 500;

/** At most `max` UTF-16 units of `text`, control characters and runs of white space made one space, no half pair. */
function clip(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  const cut = line.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** What one attempt got: a status from the endpoint (and the start of its body), or why there was none. */
export interface AttemptOutcome {
  attemptedAt: string;
  httpStatus?: number;
  error?: string;
  responseExcerpt?: string;
}

/**
 * Decides recording an attempt on the delivery as it is now: a 2xx delivers it; anything else retries it after
 * base × 2^(n-1) seconds for the window's n-th attempt, the last retry at the window's end, and past the window gives
 * it up. A delivery gone meanwhile (its endpoint deleted) records nothing.
 */
export function decideAttempt(
  delivery: WebhookDeliveryRow | null,
  outcome: AttemptOutcome,
  schedule: RetrySchedule,
  version: number,
): StreamWrite[] {
  if (!delivery) return [];
  const excerpt = outcome.responseExcerpt && clip(outcome.responseExcerpt, EXCERPT_CHARS);
  const ok = outcome.httpStatus !== undefined && outcome.httpStatus >= 200 && outcome.httpStatus < 300;
  const at = Date.parse(outcome.attemptedAt);
  const windowEnd = Date.parse(delivery.windowStartedAt) + schedule.windowSeconds * 1000;
  const backOff = schedule.baseSeconds * 1000 * 2 ** delivery.windowAttempts;
  const retryAt = Math.min(at + backOff, windowEnd);
  const status: WebhookDeliveryAttemptedData["status"] = ok ? "delivered" : at < windowEnd ? "retrying" : "failed";
  const data: WebhookDeliveryAttemptedData = {
    deliveryId: delivery.deliveryId,
    endpointId: delivery.endpointId,
    eventType: delivery.eventType,
    attempt: delivery.attempts + 1,
    attemptedAt: outcome.attemptedAt,
    status,
    ...(outcome.httpStatus !== undefined ? { httpStatus: outcome.httpStatus } : {}),
    ...(outcome.error ? { error: clip(outcome.error, ERROR_CHARS) } : {}),
    ...(excerpt ? { responseExcerpt: excerpt } : {}),
    ...(status === "retrying" ? { nextAttemptAt: new Date(retryAt).toISOString() } : {}),
  };
  return [
    {
      streamId: streams.webhookDelivery(delivery.deliveryId),
      expectedVersion: version,
      events: [{ type: "WebhookDeliveryAttempted", data }],
    },
  ];
}

/** Decides delivering again, from now, with a new retry window: the delivery must be one of the endpoint's. */
export function decideReplay(deliveryId: string, delivery: WebhookDeliveryRow | null): StreamWrite[] {
  if (!delivery)
    throw new AppError("WEBHOOK_DELIVERY_NOT_FOUND", `No delivery ${deliveryId} to this endpoint.`, { deliveryId });
  return [
    {
      streamId: streams.webhookDelivery(deliveryId),
      expectedVersion: "any",
      events: [{ type: "WebhookDeliveryReplayed", data: { deliveryId, endpointId: delivery.endpointId } }],
    },
  ];
}
