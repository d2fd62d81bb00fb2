import { Elysia } from "elysia";
import { AppError } from "../../../errors/app-error";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { FeedbackPageView, type AskedSet, type FiledFeedback } from "./feedback-views";

/**
 * "Looks wrong?" for one result of a job: the looks-wrong set served by getFeedbackQuestions as a form generated from
 * its shapes, posted to submitFeedback on the dashboard channel (filed as source dashboard), then what was filed and paid.
 */
export function feedbackPages(ctx: PageContext) {
  const pathOf = (req: DashboardRequest) =>
    `/dashboard/jobs/${encodeURIComponent(req.params.jobId!)}/feedback/${encodeURIComponent(req.params.validationId!)}`;

  async function render(req: DashboardRequest, notice: { done?: string; message?: string } = {}, status = 200) {
    const anchors = { jobId: req.params.jobId!, validationId: req.params.validationId! };
    let filed: FiledFeedback | null = null;
    try {
      filed = await callOperation<FiledFeedback>(ctx, "getFeedback", req.request, { query: anchors });
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== "FEEDBACK_NOT_FOUND") throw e;
    }
    const asked = filed
      ? null
      : await callOperation<AskedSet>(ctx, "getFeedbackQuestions", req.request, { query: anchors });
    const done =
      notice.done && filed
        ? `${notice.done} ${filed.rewardCredits} credits were paid to your organization.`
        : undefined;
    return htmlPage(
      FeedbackPageView({
        shell: { ...req.shell, path: "/dashboard/jobs" },
        ...anchors,
        asked,
        filed,
        done,
        message: notice.message,
      }) as string,
      status,
    );
  }

  return new Elysia()
    .get(
      "/dashboard/jobs/:jobId/feedback/:validationId",
      dashboardRoute(ctx, (req) =>
        render(req, { done: req.query.done === "filed" ? "Thank you: your feedback is filed." : undefined }),
      ),
    )
    .post(
      "/dashboard/jobs/:jobId/feedback/:validationId",
      formRoute(ctx, render, async (req) => {
        await callOperation(ctx, "submitFeedback", req.request, { body: req.body });
        return seeOther(`${pathOf(req)}?done=filed`);
      }),
    );
}
