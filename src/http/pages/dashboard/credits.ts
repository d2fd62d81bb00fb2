import { Elysia } from "elysia";
import { CreditsQuery } from "../../../operations/account/get-credits";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { CreditsView, type CreditsProps } from "./credits-views";

const { default: DEFAULT_LIMIT, maximum: MAX_LIMIT } = CreditsQuery.properties.limit as unknown as {
  default: number;
  maximum: number;
};
/** The choices the page offers, within the operation's documented limit. */
const LIMITS = [DEFAULT_LIMIT, 50, 100, MAX_LIMIT].filter((n, i, all) => n <= MAX_LIMIT && all.indexOf(n) === i);

/** The credits page: balance, plan, monthly grant and the newest ledger entries with their event positions; an admin changes the plan, unless a billing provider manages it. */
export function creditPages(ctx: PageContext) {
  async function render(req: DashboardRequest, notice: Pick<CreditsProps, "done" | "message"> = {}, status = 200) {
    // Only the limit goes to the operation: the session names the organization.
    const limit = req.query.limit;
    const credits = await callOperation<
      Omit<CreditsProps, "shell" | "limit" | "limits" | "plans" | "planChangeable" | "billingProvider">
    >(ctx, "getCredits", req.request, {
      query: limit === undefined ? {} : { limit },
    });
    const { plans, planChangeable, billingProvider } = await callOperation<
      Pick<CreditsProps, "plans" | "planChangeable" | "billingProvider">
    >(ctx, "listPlans", req.request);
    const shown = limit === undefined ? DEFAULT_LIMIT : Number(limit);
    const view = CreditsView({
      shell: { ...req.shell, path: "/dashboard/credits" },
      ...credits,
      plans,
      planChangeable,
      billingProvider,
      limit: shown,
      limits: [...new Set([...LIMITS, shown])].sort((a, b) => a - b),
      ...notice,
    });
    return htmlPage(view as string, status);
  }

  return new Elysia()
    .get(
      "/dashboard/credits",
      dashboardRoute(ctx, (req) => render(req, { done: req.query.done === "plan" ? "Plan changed." : undefined })),
    )
    .post(
      "/dashboard/credits/plan",
      formRoute(ctx, render, async (req) => {
        await callOperation(ctx, "changePlan", req.request, { body: req.body });
        return seeOther("/dashboard/credits?done=plan");
      }),
    );
}
