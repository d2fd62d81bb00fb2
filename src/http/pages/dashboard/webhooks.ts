import { Elysia } from "elysia";
import { WEBHOOK_EVENT_TYPES } from "../../../domain/webhooks";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import {
  DeliveriesView,
  WebhooksView,
  type DeliveriesProps,
  type DeliveryItem,
  type EndpointItem,
  type WebhooksProps,
} from "./webhooks-views";

const DONE: Record<string, string> = {
  deleted: "The endpoint is deleted: it receives nothing more.",
  replayed: "The delivery is queued again: it is attempted within a few seconds.",
};

/**
 * The webhooks pages: the organization's endpoints (add, rotate the secret, delete; a secret shown once), and one
 * endpoint's delivery log with its attempts, each delivery replayable.
 */
export function webhookPages(ctx: PageContext) {
  async function render(
    req: DashboardRequest,
    extra: Pick<WebhooksProps, "secret" | "done" | "message"> = {},
    status = 200,
  ) {
    const { endpoints } = await callOperation<{ endpoints: EndpointItem[] }>(ctx, "listWebhooks", req.request);
    const view = WebhooksView({
      shell: { ...req.shell, path: "/dashboard/webhooks" },
      endpoints,
      eventTypes: WEBHOOK_EVENT_TYPES,
      ...extra,
    });
    return htmlPage(view as string, status);
  }

  async function renderDeliveries(
    req: DashboardRequest,
    extra: Pick<DeliveriesProps, "done" | "message"> = {},
    status = 200,
  ) {
    const endpointId = req.params.endpointId!;
    const { endpoints } = await callOperation<{ endpoints: EndpointItem[] }>(ctx, "listWebhooks", req.request);
    const page = await callOperation<{ deliveries: DeliveryItem[]; nextCursor: string | null }>(
      ctx,
      "listWebhookDeliveries",
      req.request,
      { params: { endpointId }, query: req.query.cursor ? { cursor: req.query.cursor } : {} },
    );
    const path = `/dashboard/webhooks/${endpointId}`;
    const view = DeliveriesView({
      shell: { ...req.shell, path },
      // The delivery log was read for this organization, so its endpoint is among them.
      endpoint: endpoints.find((e) => e.endpointId === endpointId)!,
      deliveries: page.deliveries,
      olderHref: page.nextCursor ? `${path}?cursor=${encodeURIComponent(page.nextCursor)}` : null,
      ...extra,
    });
    return htmlPage(view as string, status);
  }

  const form = (act: (req: DashboardRequest) => Promise<Response>) => formRoute(ctx, render, act);
  const endpoint = (req: DashboardRequest) => ({ endpointId: req.params.endpointId! });

  return new Elysia()
    .get(
      "/dashboard/webhooks",
      dashboardRoute(ctx, (req) => render(req, { done: DONE[String(req.query.done)] })),
    )
    .post(
      "/dashboard/webhooks",
      form(async (req) => {
        const secret = await callOperation(ctx, "createWebhook", req.request, { body: req.body });
        return render(req, { secret, done: "Endpoint added." }, 201);
      }),
    )
    .post(
      "/dashboard/webhooks/:endpointId/rotate",
      form(async (req) => {
        const secret = await callOperation(ctx, "rotateWebhookSecret", req.request, {
          params: endpoint(req),
          body: req.body,
        });
        return render(req, { secret, done: "Secret rotated: the previous one no longer verifies." });
      }),
    )
    .post(
      "/dashboard/webhooks/:endpointId/delete",
      form(async (req) => {
        await callOperation(ctx, "deleteWebhook", req.request, { params: endpoint(req), body: req.body });
        return seeOther("/dashboard/webhooks?done=deleted");
      }),
    )
    .get(
      "/dashboard/webhooks/:endpointId",
      dashboardRoute(ctx, (req) => renderDeliveries(req, { done: DONE[String(req.query.done)] })),
    )
    .post(
      "/dashboard/webhooks/:endpointId/deliveries/:deliveryId/replay",
      formRoute(ctx, renderDeliveries, async (req) => {
        await callOperation(ctx, "replayWebhookDelivery", req.request, {
          params: { ...endpoint(req), deliveryId: req.params.deliveryId! },
          body: req.body,
        });
        return seeOther(`/dashboard/webhooks/${req.params.endpointId}?done=replayed`);
      }),
    );
}
