import { Webhook } from "standardwebhooks";
import { AppError } from "../errors/app-error";
import { guardedFetch, GuardedFetchError } from "../capture/guarded-fetch";
import {
  decideAddEndpoint,
  decideAttempt,
  decideRemoveEndpoint,
  decideReplay,
  decideRotateSecret,
  endpointNotFound,
  EXCERPT_CHARS,
  webhookSecret,
  type AttemptOutcome,
} from "../domain/webhooks";
import { streams } from "../domain/accounts";
import {
  attemptsOf,
  deliveriesOf,
  deliveryCounts,
  dueDeliveries,
  endpointsOf,
  findDelivery,
  findEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "../../projections/webhooks";
import type { WebhookEventName } from "../../events";
import type { WebhookDeliveryView, WebhookEndpointView } from "../contracts/webhooks";
import { decodeCursor, encodeCursor } from "./job-views";
import { newWebhookEndpointId, newWebhookSecretNonce } from "./ids";
import type { JobService } from "./jobs";
import type { RunService } from "./runs";
import type { RequestMeta, ServiceContext } from "./context";

const SYSTEM: RequestMeta = { actor: { kind: "system" }, channel: "system" };

/** One delivery's whole exchange, DNS included: a receiver should answer at once and work afterwards. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Deliveries one sweep attempts at most, and how many at once (a slow endpoint does not hold up the others). */
const SWEEP_BATCH = 16;
const SWEEP_CONCURRENCY = 4;
/** An answer's body is read up to this, and of it only an excerpt is kept. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** The attempts a delivery's view lists, the latest. */
const ATTEMPTS_SHOWN = 20;

/** What the payloads read. */
interface PayloadSources {
  jobs: JobService;
  runs: RunService;
  publicBaseUrl: string;
}

/**
 * What each webhook event type carries: the other half of the outbox, whose first half (projections/webhooks.ts,
 * OUTBOX) says which log events make which deliveries. Read when a delivery is attempted: what it announces is
 * settled, so every attempt and replay carries the same data.
 */
const PAYLOADS: { [T in WebhookEventName]?: (delivery: WebhookDeliveryRow, from: PayloadSources) => unknown } = {
  "job.completed": ({ customerId, subjectId }, { jobs, publicBaseUrl }) => {
    const job = jobs.get(customerId, subjectId);
    return {
      jobId: job.jobId,
      status: job.status,
      decision: job.overallPassPolicy.decision,
      summary: job.summary,
      url: `${publicBaseUrl}/api/jobs/${job.jobId}`,
    };
  },
  "run.completed": ({ customerId, subjectId }, { runs, publicBaseUrl }) =>
    runPayload(runs, customerId, subjectId, publicBaseUrl),
  "run.regressed": ({ customerId, subjectId }, { runs, publicBaseUrl }) =>
    runPayload(runs, customerId, subjectId, publicBaseUrl),
};

/** A run's webhook payload: its head, counts and decision, and the new failures that regressed it (the first 20). */
function runPayload(runs: RunService, customerId: string, runId: string, publicBaseUrl: string) {
  const { runId: _, ...run } = runs.announcement(customerId, runId);
  return { runId, ...run, url: `${publicBaseUrl}/api/runs/${runId}` };
}

const endpointView = (e: WebhookEndpointRow, deliveries: WebhookEndpointView["deliveries"]): WebhookEndpointView => ({
  endpointId: e.endpointId,
  url: e.url,
  events: e.events,
  description: e.description,
  createdAt: e.createdAt,
  secretRotatedAt: e.secretRotatedAt,
  deliveries,
});

/**
 * Webhook endpoints and their deliveries (Standard Webhooks, signed with the standardwebhooks library): endpoints
 * registered, rotated and removed by their organization; deliveries made by the log's events (the outbox), attempted
 * by the sweep of the node holding its lease, through the network guard, each attempt recorded; replayed on request.
 * A delivery never touches the job it announces.
 */
export class WebhookService {
  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "guard">,
    private readonly jobs: JobService,
    private readonly runs: RunService,
    /** The server's signing secret (the share links'), which every node has: each endpoint's secret derives from it. */
    private readonly serverSecret: Buffer,
  ) {}

  /** Registers an endpoint for its organization, its URL checked by the network guard; its secret shown only here. */
  async create(
    customerId: string,
    input: { url: string; events: WebhookEventName[]; description?: string },
    meta: RequestMeta,
  ) {
    const { log, readModels, config } = this.ctx;
    const url = await this.publicUrl(input.url);
    const endpointId = newWebhookEndpointId();
    const secretNonce = newWebhookSecretNonce();
    const description = input.description?.trim();
    await log.appendSoon(
      () =>
        decideAddEndpoint(
          {
            endpointId,
            customerId,
            url,
            events: input.events,
            ...(description ? { description } : {}),
            secretNonce,
          },
          {
            count: endpointsOf(readModels, customerId).length,
            limit: config.webhooks.endpointsPerOrganization,
            version: log.streamVersion(streams.webhooks(customerId)),
          },
        ),
      meta,
    );
    return this.withSecret(customerId, endpointId);
  }

  list(customerId: string): WebhookEndpointView[] {
    const { readModels } = this.ctx;
    return endpointsOf(readModels, customerId).map((e) => endpointView(e, deliveryCounts(readModels, e.endpointId)));
  }

  /** Removes an endpoint: it receives nothing more, and its deliveries not yet made are dropped. */
  async remove(customerId: string, endpointId: string, meta: RequestMeta) {
    const [removed] = await this.ctx.log.appendSoon(
      () => decideRemoveEndpoint(customerId, endpointId, findEndpoint(this.ctx.readModels, customerId, endpointId)),
      meta,
    );
    return { endpointId, removedAt: removed!.recordedAt };
  }

  /** A new secret, shown only here; every attempt from now on is signed with it, and the previous one stops verifying. */
  async rotateSecret(customerId: string, endpointId: string, meta: RequestMeta) {
    const secretNonce = newWebhookSecretNonce();
    await this.ctx.log.appendSoon(
      () =>
        decideRotateSecret(
          customerId,
          endpointId,
          findEndpoint(this.ctx.readModels, customerId, endpointId),
          secretNonce,
        ),
      meta,
    );
    return this.withSecret(customerId, endpointId);
  }

  /** An endpoint's deliveries, newest first, each with its latest attempts. */
  deliveries(customerId: string, endpointId: string, page: { limit?: number; cursor?: string }) {
    const limit = page.limit ?? 20;
    this.endpoint(customerId, endpointId);
    const rows = deliveriesOf(this.ctx.readModels, endpointId, {
      ...(page.cursor ? { beforeSeq: decodeCursor(page.cursor) } : {}),
      limit: limit + 1,
    });
    const shown = rows.slice(0, limit);
    return {
      deliveries: shown.map((d) => this.deliveryView(d)),
      nextCursor: rows.length > limit ? encodeCursor(shown.at(-1)!.seq) : null,
    };
  }

  /** Delivers one delivery again, from now, with a new retry window. */
  async replay(customerId: string, endpointId: string, deliveryId: string, meta: RequestMeta) {
    this.endpoint(customerId, endpointId);
    await this.ctx.log.appendSoon(
      () => decideReplay(deliveryId, findDelivery(this.ctx.readModels, endpointId, deliveryId)),
      meta,
    );
    return this.deliveryView(findDelivery(this.ctx.readModels, endpointId, deliveryId)!);
  }

  /**
   * Attempts the deliveries due now (NodeDuties runs it on the node holding the deliveries' lease), a few at a time,
   * asking `holding` before each few whether this node still holds the lease (and renewing it), so that no two nodes
   * attempt one delivery. Answers how many it attempted.
   */
  async sweep(holding: () => Promise<boolean>): Promise<number> {
    const due = dueDeliveries(this.ctx.readModels, new Date().toISOString(), SWEEP_BATCH);
    let attempted = 0;
    for (let i = 0; i < due.length; i += SWEEP_CONCURRENCY) {
      if (!(await holding())) break;
      const group = due.slice(i, i + SWEEP_CONCURRENCY);
      await Promise.all(group.map((d) => this.attempt(d)));
      attempted += group.length;
    }
    return attempted;
  }

  /** One attempt, recorded whatever came of it, decided on the delivery as it is once the answer is in. */
  private async attempt(delivery: WebhookDeliveryRow & { url: string; secretNonce: string }): Promise<void> {
    const { log, readModels, config } = this.ctx;
    const outcome = await this.send(delivery);
    await log.appendSoon(
      () =>
        decideAttempt(
          findDelivery(readModels, delivery.endpointId, delivery.deliveryId),
          outcome,
          config.webhooks.retry,
          log.streamVersion(streams.webhookDelivery(delivery.deliveryId)),
        ),
      SYSTEM,
    );
  }

  /** POSTs the delivery, signed, through the network guard (checked again now: DNS may have changed since). */
  private async send(delivery: WebhookDeliveryRow & { url: string; secretNonce: string }): Promise<AttemptOutcome> {
    const sentAt = new Date();
    const attemptedAt = sentAt.toISOString();
    const secret = webhookSecret(this.serverSecret, delivery.endpointId, delivery.secretNonce);
    // Whatever fails, even building the payload, is the attempt's error: recorded, retried, given up in the end.
    try {
      const payload = PAYLOADS[delivery.eventType];
      if (!payload) throw new Error(`the outbox announced ${delivery.eventType}, for which no payload is defined`);
      const body = JSON.stringify({
        type: delivery.eventType,
        timestamp: delivery.occurredAt,
        data: payload(delivery, { jobs: this.jobs, runs: this.runs, publicBaseUrl: this.ctx.config.publicBaseUrl }),
      });
      const res = await guardedFetch(this.ctx.guard, delivery.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Assay-Webhooks",
          "webhook-id": delivery.deliveryId,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": new Webhook(secret).sign(delivery.deliveryId, sentAt, body),
        },
        body,
        // A receiver answers where it is: a redirect is an answer that is not 2xx, never followed.
        maxRedirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      });
      if (res.refused) return { attemptedAt, error: `refused by the network guard: ${res.detail}` };
      // A status outside HTTP's range is no answer (and the log records 100 to 599 only).
      if (res.status < 100 || res.status > 599) return { attemptedAt, error: `answered HTTP status ${res.status}` };
      // Enough bytes for the characters kept, whatever their UTF-8 length and the white space made one.
      const responseExcerpt = new TextDecoder().decode(res.body.subarray(0, EXCERPT_CHARS * 8));
      return { attemptedAt, httpStatus: res.status, responseExcerpt };
    } catch (e) {
      return { attemptedAt, error: e instanceof GuardedFetchError ? `${e.kind}: ${e.message}` : (e as Error).message };
    }
  }

  /** The endpoint's URL as it will be called: a public http(s) URL by the network guard's verdict, with no credentials. */
  private async publicUrl(raw: string): Promise<string> {
    const verdict = await this.ctx.guard.check(raw);
    if (verdict.allowed && (verdict.url.username || verdict.url.password)) {
      throw new AppError(
        "WEBHOOK_URL_INVALID",
        "url carries a user name or password: deliveries are authenticated by their signature instead.",
        { field: "url", reason: "credentials" },
      );
    }
    if (verdict.allowed) return verdict.url.href;
    if (verdict.reason === "dns-unavailable") {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "DNS could not resolve the url's host now, so nothing was registered. Retry shortly.",
        { dependency: "dns", field: "url" },
        verdict.detail,
        true,
      );
    }
    throw new AppError("WEBHOOK_URL_INVALID", `url is not a public http(s) URL: ${verdict.detail}.`, {
      field: "url",
      reason: verdict.reason,
    });
  }

  private endpoint(customerId: string, endpointId: string): WebhookEndpointRow {
    const endpoint = findEndpoint(this.ctx.readModels, customerId, endpointId);
    if (!endpoint) throw endpointNotFound(endpointId);
    return endpoint;
  }

  private withSecret(customerId: string, endpointId: string) {
    const endpoint = this.endpoint(customerId, endpointId);
    return {
      ...endpointView(endpoint, deliveryCounts(this.ctx.readModels, endpointId)),
      secret: webhookSecret(this.serverSecret, endpointId, endpoint.secretNonce),
    };
  }

  private deliveryView(d: WebhookDeliveryRow): WebhookDeliveryView {
    return {
      deliveryId: d.deliveryId,
      endpointId: d.endpointId,
      eventType: d.eventType,
      subjectId: d.subjectId,
      status: d.status,
      createdAt: d.occurredAt,
      attemptCount: d.attempts,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
      attempts: attemptsOf(this.ctx.readModels, d.deliveryId, ATTEMPTS_SHOWN),
    };
  }
}
