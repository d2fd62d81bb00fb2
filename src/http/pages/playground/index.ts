import { Elysia } from "elysia";
import { AppError } from "../../../errors/app-error";
import { callOperation, formOf, htmlPage, retryAfterOf, seeOther, type PageContext } from "../page-kit";
import {
  PlaygroundMissingPage,
  PlaygroundPage,
  PlaygroundRunPage,
  type PlaygroundFormValues,
  type PlaygroundRunProps,
} from "./playground-views";

/** A refusal as the page shows it: its code, then what to do. */
const refusal = (e: AppError) => `${e.code}: ${e.message}`;

/**
 * The anonymous playground's pages: /playground (the try-it form, posted without JavaScript to runPlayground) and
 * /playground/runs/{runId} (getPlaygroundRun). Anyone may use them; a refusal shows the form again with its code
 * and status (and Retry-After, as the API gives it).
 */
export function playgroundPages(ctx: PageContext) {
  const origin = ctx.services.config.publicBaseUrl;
  const { playground } = ctx.services;
  const form = (values?: PlaygroundFormValues, message?: string) =>
    PlaygroundPage({ origin, checks: playground.checks, viewport: playground.viewport, values, message }) as string;
  return new Elysia()
    .get("/playground", () => htmlPage(form()))
    .post("/playground", async ({ request, body }) => {
      const fields = formOf(body);
      let answer: Response;
      try {
        answer = await callOperation<Response>(ctx, "runPlayground", request, { body });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const values = {
          url: fields.get("url") ?? undefined,
          html: fields.get("html") ?? undefined,
          baseUrl: fields.get("baseUrl") ?? undefined,
        };
        return htmlPage(form(values, refusal(e)), e.status, retryAfterOf(e));
      }
      const run = (await answer.json()) as PlaygroundRunProps;
      const cookie = answer.headers.get("set-cookie");
      return seeOther(`/playground/runs/${encodeURIComponent(run.runId)}`, cookie ? { "set-cookie": cookie } : {});
    })
    .get("/playground/runs/:runId", async ({ request, params }) => {
      try {
        const run = await callOperation<PlaygroundRunProps>(ctx, "getPlaygroundRun", request, { params });
        // The page links its screenshot by path, never as http: (mixed content on an https page).
        const screenshotUrl = run.screenshotUrl && new URL(run.screenshotUrl).pathname;
        return htmlPage(PlaygroundRunPage({ origin, run: { ...run, screenshotUrl } }) as string);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return htmlPage(PlaygroundMissingPage({ origin, message: refusal(e) }) as string, e.status);
      }
    });
}
