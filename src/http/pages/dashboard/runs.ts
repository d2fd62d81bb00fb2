import { Elysia } from "elysia";
import { callOperation, formOf, htmlPage, seeOther, type PageContext } from "../page-kit";
import { sharedPath } from "./jobs";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { type CheckTrend, type ProjectItem, ProjectsView, ProjectView } from "./projects-views";
import { type RunBriefItem, type RunItem, RunView } from "./runs-views";

/** How many runs a project's page lists at once, and how many of them its trend per check reads. */
const PAGE_SIZE = 20;
const TREND_RUNS = 10;

const DONE: Record<string, string> = {
  baseline: "This run is now the project's baseline: its next runs are compared with it.",
};

/** Fails per check over the runs (given newest first), oldest first: a failure accepted by an ignore does not count. */
export function trendOf(runs: readonly RunItem[]): CheckTrend {
  const ordered = [...runs].reverse();
  const ids = new Set(ordered.flatMap((r) => r.pages.flatMap((p) => p.failures.map((f) => f.validationId))));
  const checks = [...ids]
    .sort()
    .map((validationId) => ({
      validationId,
      counts: ordered.map(
        (r) => r.pages.filter((p) => p.failures.some((f) => f.validationId === validationId && !f.accepted)).length,
      ),
    }))
    .filter((c) => c.counts.some((n) => n > 0));
  return { runs: ordered.map((r) => ({ runId: r.runId, createdAt: r.createdAt })), checks };
}

/**
 * The runs pages: the organization's projects, a project's runs with its trend per check, and one run (its decision
 * first, then what is new, fixed and visually changed against its baseline, its pages, what was accepted) with the
 * form that makes it the project's baseline. Runs are read only through the run operations.
 */
export function runPages(ctx: PageContext) {
  const projectsOf = async (req: DashboardRequest) =>
    (await callOperation<{ projects: ProjectItem[] }>(ctx, "listProjects", req.request)).projects;

  /** The run as the page shows it: each visual comparison's images by share links on this site. */
  function localRun(run: RunItem): RunItem {
    const shared = (url: string) => sharedPath(url, (key) => ctx.services.captures.shareUrl(key));
    return {
      ...run,
      pages: run.pages.map((p) =>
        p.visual
          ? {
              ...p,
              visual: {
                ...p.visual,
                sizes: p.visual.sizes.map(({ diffUrl, ...s }) => ({
                  ...s,
                  baselineUrl: shared(s.baselineUrl),
                  currentUrl: shared(s.currentUrl),
                  ...(diffUrl ? { diffUrl: shared(diffUrl) } : {}),
                })),
              },
            }
          : p,
      ),
    };
  }

  async function renderRun(
    req: DashboardRequest,
    runId: string,
    extra: { done?: string; message?: string } = {},
    status = 200,
  ) {
    const run = await callOperation<RunItem>(ctx, "getRun", req.request, { params: { runId } });
    const project = (await projectsOf(req)).find((p) => p.project === run.project);
    const view = RunView({
      shell: { ...req.shell, path: "/dashboard/projects" },
      run: localRun(run),
      baselineRunId: project?.baselineRunId ?? null,
      ...extra,
    });
    return htmlPage(view as string, status);
  }

  return new Elysia()
    .get(
      "/dashboard/projects",
      dashboardRoute(ctx, async (req) => {
        const projects = await projectsOf(req);
        const latest: Record<string, RunBriefItem | undefined> = {};
        for (const p of projects) {
          const { runs } = await callOperation<{ runs: RunBriefItem[] }>(ctx, "listRuns", req.request, {
            query: { project: p.project, limit: "1" },
          });
          latest[p.project] = runs[0];
        }
        return htmlPage(ProjectsView({ shell: req.shell, projects, latest }) as string);
      }),
    )
    .get(
      "/dashboard/projects/:project",
      dashboardRoute(ctx, async (req) => {
        const name = req.params.project!;
        const project = (await projectsOf(req)).find((p) => p.project === name) ?? null;
        const cursor = req.query.cursor || undefined;
        const { runs, nextCursor } = project
          ? await callOperation<{ runs: RunBriefItem[]; nextCursor: string | null }>(ctx, "listRuns", req.request, {
              query: { project: name, limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) },
            })
          : { runs: [], nextCursor: null };
        // The trend reads the newest runs whatever page of the list is shown.
        const newest = cursor
          ? (
              await callOperation<{ runs: RunBriefItem[] }>(ctx, "listRuns", req.request, {
                query: { project: name, limit: String(TREND_RUNS) },
              })
            ).runs
          : runs.slice(0, TREND_RUNS);
        const recent = await Promise.all(
          newest.map((r) => callOperation<RunItem>(ctx, "getRun", req.request, { params: { runId: r.runId } })),
        );
        const path = `/dashboard/projects/${encodeURIComponent(name)}`;
        const view = ProjectView({
          shell: { ...req.shell, path: "/dashboard/projects" },
          project,
          name,
          runs,
          trend: trendOf(recent),
          olderHref: nextCursor ? `${path}?cursor=${encodeURIComponent(nextCursor)}` : null,
        });
        return htmlPage(view as string, project ? 200 : 404);
      }),
    )
    .get(
      "/dashboard/runs/:runId",
      dashboardRoute(ctx, (req) => renderRun(req, req.params.runId!, { done: DONE[String(req.query.done)] })),
    )
    .post(
      "/dashboard/projects/:project/baseline",
      formRoute(
        ctx,
        (req, notice, status) => renderRun(req, formOf(req.body).get("runId") ?? "", notice, status),
        async (req) => {
          const runId = formOf(req.body).get("runId") ?? "";
          await callOperation(ctx, "setBaseline", req.request, {
            params: { project: req.params.project! },
            body: req.body,
          });
          return seeOther(`/dashboard/runs/${encodeURIComponent(runId)}?done=baseline`);
        },
      ),
    );
}
