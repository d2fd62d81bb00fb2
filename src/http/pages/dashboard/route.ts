import { AppError } from "../../../errors/app-error";
import type { SessionPrincipal } from "../../../services/sessions";
import type { Query } from "../../operation-routes";
import { requestIdOf } from "../../request";
import { htmlPage, pathOf, sessionOrNull, signInFirst, type PageContext } from "../page-kit";
import { ProblemPage, type ShellProps } from "./shell";

/** What a dashboard handler gets: the request, its session, and what the shell shows of it. */
export interface DashboardRequest {
  request: Request;
  session: SessionPrincipal;
  shell: ShellProps;
  params: Record<string, string>;
  query: Query;
  body: unknown;
}

type Handler = (req: DashboardRequest) => Response | Promise<Response>;

interface ElysiaArgs {
  request: Request;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** The shell's props for a session on a page. */
export function shellOf(ctx: PageContext, session: SessionPrincipal, path: string): ShellProps {
  const described = ctx.services.sessions.describe(session);
  return {
    origin: ctx.services.config.publicBaseUrl,
    email: described.email,
    role: described.role,
    customerId: described.customerId,
    csrfToken: described.csrfToken,
    organizations: described.organizations,
    path,
  };
}

/**
 * A dashboard route: signed out, a page sends the person to sign in and back (a form too: nothing was done);
 * signed in, the handler runs, and an AppError it does not answer itself becomes a page with the error's
 * status, message and code (another organization's job reads as a missing one, as on /api).
 */
export function dashboardRoute(ctx: PageContext, handler: Handler) {
  return async ({ request, params, query, body }: ElysiaArgs): Promise<Response> => {
    const session = sessionOrNull(ctx.services, request);
    if (!session) return signInFirst(request.method === "GET" ? pathOf(request) : "/dashboard");
    const shell = shellOf(ctx, session, new URL(request.url).pathname);
    try {
      return await handler({
        request,
        session,
        shell,
        params: (params ?? {}) as Record<string, string>,
        query: (query ?? {}) as Query,
        body,
      });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // A form that outlived its session, or a forged one: sign in again; nothing was done.
      if (e.code === "AUTH_REQUIRED") return signInFirst("/dashboard");
      return problemPage(ctx, e, request, shell);
    }
  };
}

/**
 * A form's route: its operation runs in `act`; a refusal (other than a lost session) shows the page again, drawn
 * by `render`, with the reason and code under the refusal's status: nothing was changed.
 */
export function formRoute(
  ctx: PageContext,
  render: (req: DashboardRequest, notice: { message: string }, status: number) => Promise<Response>,
  act: (req: DashboardRequest) => Promise<Response>,
) {
  return dashboardRoute(ctx, async (req) => {
    try {
      return await act(req);
    } catch (e) {
      if (!(e instanceof AppError) || e.code === "AUTH_REQUIRED") throw e;
      return render(req, { message: `${e.message} Nothing was changed. (${e.code})` }, e.status);
    }
  });
}

export function problemPage(ctx: PageContext, e: AppError, request: Request, shell?: ShellProps): Response {
  return htmlPage(
    ProblemPage({
      origin: ctx.services.config.publicBaseUrl,
      shell,
      status: e.status,
      code: e.code,
      message: e.message,
    }) as string,
    e.status,
    {
      "x-request-id": requestIdOf(request),
    },
  );
}
