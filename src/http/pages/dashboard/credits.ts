import { Elysia } from "elysia";
import { CreditsQuery } from "../../../contracts/inputs";
import { callOperation, htmlPage, type PageContext } from "../page-kit";
import { dashboardRoute } from "./route";
import { CreditsView, type CreditsProps } from "./credits-views";

const { default: DEFAULT_LIMIT, maximum: MAX_LIMIT } = CreditsQuery.properties.limit as unknown as { default: number; maximum: number };
/** The choices the page offers, within the operation's documented limit. */
const LIMITS = [DEFAULT_LIMIT, 50, 100, MAX_LIMIT].filter((n, i, all) => n <= MAX_LIMIT && all.indexOf(n) === i);

/** The credits page: balance, plan, monthly grant and the newest ledger entries with their event positions. */
export function creditPages(ctx: PageContext) {
  return new Elysia().get(
    "/dashboard/credits",
    dashboardRoute(ctx, async (req) => {
      // Only the limit goes to the operation: the session names the organization.
      const limit = req.query.limit;
      const credits = await callOperation<Omit<CreditsProps, "shell" | "limit" | "limits">>(ctx, "getCredits", req.request, {
        query: limit === undefined ? {} : { limit },
      });
      const shown = limit === undefined ? DEFAULT_LIMIT : Number(limit);
      return htmlPage(CreditsView({ shell: req.shell, ...credits, limit: shown, limits: [...new Set([...LIMITS, shown])].sort((a, b) => a - b) }) as string);
    }),
  );
}
