import { Elysia } from "elysia";
import { SCOPE_DESCRIPTIONS } from "../../../domain/accounts";
import { ROLE_SCOPES } from "../../../domain/people";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { KeysView, type KeysProps } from "./keys-views";

const DONE: Record<string, string> = { revoked: "The key is revoked: its next request gets 401." };

/** The keys page: the organization's keys (a member sees their own), mint, rotate and revoke; secrets shown once. */
export function keyPages(ctx: PageContext) {
  async function render(
    req: DashboardRequest,
    extra: Pick<KeysProps, "secret" | "done" | "message"> = {},
    status = 200,
  ) {
    const { keys } = await callOperation(ctx, "listKeys", req.request);
    const scopes = ROLE_SCOPES[req.session.role].map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] }));
    return htmlPage(
      KeysView({ shell: { ...req.shell, path: "/dashboard/keys" }, keys, scopes, ...extra }) as string,
      status,
    );
  }

  const form = (act: (req: DashboardRequest) => Promise<Response>) => formRoute(ctx, render, act);

  return new Elysia()
    .get(
      "/dashboard/keys",
      dashboardRoute(ctx, (req) => render(req, { done: DONE[String(req.query.done)] })),
    )
    .post(
      "/dashboard/keys",
      form(async (req) => {
        const key = await callOperation(ctx, "mintKey", req.request, { body: req.body });
        return render(req, { secret: key, done: "Key minted." }, 201);
      }),
    )
    .post(
      "/dashboard/keys/:keyId/rotate",
      form(async (req) => {
        const key = await callOperation(ctx, "rotateKey", req.request, {
          params: { keyId: req.params.keyId! },
          body: req.body,
        });
        return render(req, { secret: key, done: "Key rotated." });
      }),
    )
    .post(
      "/dashboard/keys/:keyId/revoke",
      form(async (req) => {
        await callOperation(ctx, "revokeKey", req.request, { params: { keyId: req.params.keyId! }, body: req.body });
        return seeOther("/dashboard/keys?done=revoked");
      }),
    );
}
