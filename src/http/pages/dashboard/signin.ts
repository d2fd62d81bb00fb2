import { Elysia } from "elysia";
import { AppError } from "../../../errors/app-error";
import { clearedSessionCookie } from "../../../operations/session-cookie";
import { callOperation, formOf, htmlPage, retryAfterOf, seeOther, sessionOrNull, type PageContext } from "../page-kit";
import { dashboardRoute } from "./route";
import { LinkSentPage, SignInPage } from "./signin-views";

/** Only a path on this site may be where sign-in comes back to (no open redirect). */
const localPath = (next: unknown) =>
  typeof next === "string" && next.startsWith("/") && !next.startsWith("//") ? next : "/dashboard";

/**
 * Signing in and out, and switching organization: /signin (the emailed link; the OpenID provider when
 * configured), /signout, the organization switcher's form, and / and /dashboard, which lead to the jobs.
 */
export function signInPages(ctx: PageContext) {
  const oidc = !!ctx.services.config.oidc;
  const origin = ctx.services.config.publicBaseUrl;
  return new Elysia()
    .get("/", ({ request }) => seeOther(sessionOrNull(ctx.services, request) ? "/dashboard/jobs" : "/signin"))
    .get("/dashboard", () => seeOther("/dashboard/jobs"))
    .get("/signin", ({ query }) => {
      const done = query.done === "signed-out" ? "You are signed out." : undefined;
      return htmlPage(SignInPage({ origin, next: localPath(query.next), oidc, done }) as string);
    })
    .post("/signin", async ({ request, body }) => {
      const form = formOf(body);
      const next = localPath(form.get("next"));
      try {
        await callOperation(ctx, "requestSignInLink", request, {
          body: `${new URLSearchParams({ email: form.get("email") ?? "", next })}`,
        });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return htmlPage(
          SignInPage({ origin, next, oidc, message: `${e.message} No link was sent.` }) as string,
          e.status,
          retryAfterOf(e),
        );
      }
      return htmlPage(
        LinkSentPage({
          origin,
          email: form.get("email") ?? "",
          next,
          relay: !!ctx.services.config.mailRelayUrl,
        }) as string,
      );
    })
    .post(
      "/signout",
      dashboardRoute(ctx, async ({ request, body }) => {
        await callOperation(ctx, "signOut", request, { body });
        return seeOther("/signin?done=signed-out", { "set-cookie": clearedSessionCookie(ctx.services.config) });
      }),
    )
    .post(
      "/dashboard/organization",
      dashboardRoute(ctx, async ({ request, body }) => {
        const form = formOf(body);
        await callOperation(ctx, "switchOrganization", request, {
          body: `${new URLSearchParams({ customerId: form.get("customerId") ?? "", _csrf: form.get("_csrf") ?? "" })}`,
        });
        return seeOther(localPath(form.get("next")));
      }),
    );
}
