import { Elysia } from "elysia";
import type { PageContext } from "../page-kit";
import { creditPages } from "./credits";
import { feedbackPages } from "./feedback";
import { jobPages } from "./jobs";
import { keyPages } from "./keys";
import { memberPages } from "./members";
import { runPages } from "./runs";
import { signInPages } from "./signin";
import { webhookPages } from "./webhooks";

/** The dashboard: server-rendered pages over the same operations as /api, usable without JavaScript. */
export function dashboardPages(ctx: PageContext) {
  return new Elysia()
    .use(signInPages(ctx))
    .use(jobPages(ctx))
    .use(runPages(ctx))
    .use(feedbackPages(ctx))
    .use(creditPages(ctx))
    .use(keyPages(ctx))
    .use(memberPages(ctx))
    .use(webhookPages(ctx));
}
