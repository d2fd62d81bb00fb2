import { Elysia } from "elysia";
import type { PageContext } from "../page-kit";
import { jobPages } from "./jobs";
import { keyPages } from "./keys";
import { signInPages } from "./signin";

/** The dashboard: server-rendered pages over the same operations as /api, usable without JavaScript. */
export function dashboardPages(ctx: PageContext) {
  return new Elysia().use(signInPages(ctx)).use(keyPages(ctx)).use(jobPages(ctx));
}
