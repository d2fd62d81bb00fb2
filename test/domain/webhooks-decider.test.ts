import { expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { decideAddEndpoint, decideAttempt, decideReplay, webhookSecret } from "../../src/domain/webhooks";
import type { WebhookDeliveryRow } from "../../projections/webhooks";
import type { WebhookDeliveryAttemptedData } from "../../events";
import { refusal } from "../support/refusal";

/** The webhooks decider: the endpoint limit, the derived secret, and what an attempt makes of a delivery. */

const START = "2026-01-01T00:00:00.000Z";
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
const SCHEDULE = { baseSeconds: 30, windowSeconds: 86_400 };

const delivery = (over: Partial<WebhookDeliveryRow> = {}): WebhookDeliveryRow => ({
  seq: 1,
  deliveryId: "msg_1",
  endpointId: "whe_1",
  customerId: "cus_1",
  eventType: "job.completed",
  subjectId: "job_1",
  occurredAt: START,
  status: "pending",
  attempts: 0,
  windowStartedAt: START,
  windowAttempts: 0,
  nextAttemptAt: START,
  lastAttemptAt: null,
  lastHttpStatus: null,
  lastError: null,
  ...over,
});

const attempted = (writes: ReturnType<typeof decideAttempt>) =>
  writes[0]!.events[0]!.data as WebhookDeliveryAttemptedData;

test("the secret is whsec_ and the HMAC of the server's secret over the endpoint and its nonce; standardwebhooks signs and verifies with it", () => {
  const server = Buffer.from("0".repeat(64), "hex");
  const secret = webhookSecret(server, "whe_1", "nonce123456789012345678");
  const key = createHmac("sha256", server).update("webhook\nwhe_1\nnonce123456789012345678").digest("base64");
  expect(secret).toBe(`whsec_${key}`);
  expect(webhookSecret(server, "whe_1", "another-nonce-1234567890")).not.toBe(secret);
  const body = JSON.stringify({ type: "job.completed", timestamp: START, data: {} });
  const now = new Date();
  const headers = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign("msg_1", now, body),
  };
  expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
});

test("an endpoint past the organization's limit is refused; within it, decided on the stream's version", () => {
  const endpoint = {
    endpointId: "whe_1",
    customerId: "cus_1",
    url: "https://hooks.example.com/",
    events: ["job.completed" as const],
    secretNonce: "nonce123456789012345678",
  };
  expect(refusal(() => decideAddEndpoint(endpoint, { count: 20, limit: 20, version: 20 })).code).toBe(
    "WEBHOOK_LIMIT_REACHED",
  );
  expect(decideAddEndpoint(endpoint, { count: 19, limit: 20, version: 23 })).toEqual([
    { streamId: "webhooks-cus_1", expectedVersion: 23, events: [{ type: "WebhookEndpointAdded", data: endpoint }] },
  ]);
});

test("a 2xx delivers; anything else retries after base × 2^(n-1) from the attempt, the last retry at the window's end, then gives up", () => {
  expect(attempted(decideAttempt(delivery(), { attemptedAt: at(1), httpStatus: 204 }, SCHEDULE, 0))).toEqual({
    deliveryId: "msg_1",
    endpointId: "whe_1",
    eventType: "job.completed",
    attempt: 1,
    attemptedAt: at(1),
    status: "delivered",
    httpStatus: 204,
  });
  const first = attempted(decideAttempt(delivery(), { attemptedAt: at(1), httpStatus: 500 }, SCHEDULE, 0));
  expect([first.status, first.nextAttemptAt]).toEqual(["retrying", at(31)]);
  const fourth = attempted(
    decideAttempt(
      delivery({ attempts: 3, windowAttempts: 3 }),
      { attemptedAt: at(300), error: "timeout" },
      SCHEDULE,
      3,
    ),
  );
  expect([fourth.attempt, fourth.status, fourth.nextAttemptAt, fourth.error]).toEqual([
    4,
    "retrying",
    at(300 + 240),
    "timeout",
  ]);
  const late = decideAttempt(
    delivery({ attempts: 11, windowAttempts: 11 }),
    { attemptedAt: at(80_000), httpStatus: 502 },
    SCHEDULE,
    11,
  );
  expect(attempted(late).nextAttemptAt).toBe(at(86_400));
  const last = attempted(
    decideAttempt(
      delivery({ attempts: 12, windowAttempts: 12 }),
      { attemptedAt: at(86_400), httpStatus: 502 },
      SCHEDULE,
      12,
    ),
  );
  expect([last.status, last.nextAttemptAt]).toEqual(["failed", undefined]);
  // A replay's window starts at the replay: the attempt after it retries again.
  const replayed = delivery({ attempts: 13, windowAttempts: 0, windowStartedAt: at(90_000), status: "pending" });
  expect(attempted(decideAttempt(replayed, { attemptedAt: at(90_001), httpStatus: 500 }, SCHEDULE, 14))).toMatchObject({
    attempt: 14,
    status: "retrying",
    nextAttemptAt: at(90_031),
  });
});

test("what is kept of an answer is bounded: 200 characters of its body on one line, 500 of an error, no half character", () => {
  const excerpt = `${"a".repeat(199)}\u{1F600} and more`;
  const kept = attempted(
    decideAttempt(delivery(), { attemptedAt: at(1), httpStatus: 500, responseExcerpt: excerpt }, SCHEDULE, 0),
  );
  expect(kept.responseExcerpt).toBe("a".repeat(199));
  const lines = attempted(
    decideAttempt(
      delivery(),
      { attemptedAt: at(1), httpStatus: 500, responseExcerpt: "  down\r\n\tfor\u0000 now  " },
      SCHEDULE,
      0,
    ),
  );
  expect(lines.responseExcerpt).toBe("down for now");
  const long = attempted(decideAttempt(delivery(), { attemptedAt: at(1), error: "x".repeat(2000) }, SCHEDULE, 0));
  expect(long.error).toHaveLength(500);
});

test("a delivery gone (its endpoint deleted) records no attempt; a replay of a delivery not the endpoint's is refused", () => {
  expect(decideAttempt(null, { attemptedAt: at(1), httpStatus: 204 }, SCHEDULE, 0)).toEqual([]);
  expect(refusal(() => decideReplay("msg_x", null)).code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
  expect(decideReplay("msg_1", delivery())).toEqual([
    {
      streamId: "webhook-delivery-msg_1",
      expectedVersion: "any",
      events: [{ type: "WebhookDeliveryReplayed", data: { deliveryId: "msg_1", endpointId: "whe_1" } }],
    },
  ]);
});
