import { Elysia } from "elysia";
import { Role } from "../../../../events/people";
import { clearedSessionCookie } from "../../../operations/session-cookie";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { MembersView, type MembersProps } from "./members-views";

const ROLES = Role.anyOf.map((r) => r.const);

const DONE: Record<string, string> = {
  invited: "Invitation sent: the link is on its way to that email.",
  role: "Role changed.",
  removed: "Member removed: the keys they minted for this organization are revoked.",
  left: "You left that organization: the dashboard now acts for your next one.",
};

/**
 * The members page: the organization's members and pending invitations; an admin invites, changes roles and
 * removes; anyone leaves. Forms are shown by role, but the operations decide (a member's admin form is refused).
 */
export function memberPages(ctx: PageContext) {
  async function render(req: DashboardRequest, extra: Pick<MembersProps, "done" | "message"> = {}, status = 200) {
    const list = await callOperation<Pick<MembersProps, "members" | "invitations">>(ctx, "listMembers", req.request);
    const view = MembersView({
      shell: { ...req.shell, path: "/dashboard/members" },
      personId: req.session.personId,
      members: list.members,
      invitations: list.invitations,
      roles: ROLES,
      ...extra,
    });
    return htmlPage(view as string, status);
  }

  const form = (act: (req: DashboardRequest) => Promise<Response>) => formRoute(ctx, render, act);

  const person = (req: DashboardRequest) => ({ personId: req.params.personId! });

  return new Elysia()
    .get(
      "/dashboard/members",
      dashboardRoute(ctx, (req) => render(req, { done: DONE[String(req.query.done)] })),
    )
    .post(
      "/dashboard/members/invite",
      form(async (req) => {
        await callOperation(ctx, "inviteMember", req.request, { body: req.body });
        return seeOther("/dashboard/members?done=invited");
      }),
    )
    .post(
      "/dashboard/members/leave",
      form(async (req) => {
        const left = await callOperation<{ session: unknown }>(ctx, "leaveOrganization", req.request, {
          body: req.body,
        });
        // The session moved to the person's next organization, or ended with the last one.
        if (left.session) return seeOther("/dashboard/members?done=left");
        return seeOther("/signin?done=signed-out", { "set-cookie": clearedSessionCookie(ctx.services.config) });
      }),
    )
    .post(
      "/dashboard/members/:personId/role",
      form(async (req) => {
        await callOperation(ctx, "changeMemberRole", req.request, { params: person(req), body: req.body });
        return seeOther("/dashboard/members?done=role");
      }),
    )
    .post(
      "/dashboard/members/:personId/remove",
      form(async (req) => {
        await callOperation(ctx, "removeMember", req.request, { params: person(req), body: req.body });
        return seeOther("/dashboard/members?done=removed");
      }),
    );
}
