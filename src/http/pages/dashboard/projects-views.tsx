import { DecisionBadge } from "./badges";
import { projectLink, type RunBriefItem, runLink, Source, when } from "./runs-views";
import { DashboardPage, type ShellProps } from "./shell";

/** The projects pages: the organization's projects, and a project's runs with each check's failures over its last runs. */

export interface ProjectItem {
  project: string;
  baseBranch: string;
  baselineRunId: string | null;
  baselineBy: "explicit" | "latest" | null;
  latestRunId: string | null;
  runs: number;
  createdAt: string;
}

/** A project's fails per check over its last runs, oldest first (counts[i] is runs[i]'s). */
export interface CheckTrend {
  runs: { runId: string; createdAt: string }[];
  checks: { validationId: string; counts: number[] }[];
}

export interface ProjectsProps {
  shell: ShellProps;
  projects: ProjectItem[];
  /** Each project's latest run, by project. */
  latest: Record<string, RunBriefItem | undefined>;
}

export function ProjectsView(props: ProjectsProps) {
  return (
    <DashboardPage
      shell={props.shell}
      title="Projects"
      description="Your organization's projects: the sites and campaigns checked as runs, each with its baseline and latest run."
    >
      {props.projects.length === 0 ? (
        <p>
          No projects yet. A project is created by its first run: <code>assay run --config assay.config.json</code>,
          POST /api/runs, or the run_site tool.
        </p>
      ) : (
        <ul class="cards">
          {props.projects.map((p) => {
            const latest = props.latest[p.project];
            return (
              <li id={`project-${p.project}`}>
                <h2 class="card-title">
                  <a href={projectLink(p.project)} safe>
                    {p.project}
                  </a>
                </h2>
                <p>
                  {String(p.runs)} {p.runs === 1 ? "run" : "runs"}, base branch <code safe>{p.baseBranch}</code>.{" "}
                  {p.baselineRunId ? (
                    <>
                      Baseline: <a href={runLink(p.baselineRunId)}>{p.baselineRunId}</a> (
                      {p.baselineBy === "explicit" ? "set explicitly" : "the latest on the base branch"}).
                    </>
                  ) : (
                    "No baseline yet."
                  )}
                </p>
                {latest ? (
                  <p>
                    Latest run: <DecisionBadge decision={latest.decision} />{" "}
                    <a href={runLink(latest.runId)}>{latest.runId}</a>, <Source run={latest} />,{" "}
                    {when(latest.createdAt)}.
                  </p>
                ) : (
                  ""
                )}
              </li>
            );
          })}
        </ul>
      )}
    </DashboardPage>
  );
}

/** Fails per run as a small line, newest at the right; the numbers are beside it as text. */
function Sparkline(props: { counts: number[] }) {
  const { counts } = props;
  const max = Math.max(1, ...counts);
  const step = counts.length > 1 ? 96 / (counts.length - 1) : 0;
  const points = counts.map((c, i) => `${(2 + i * step).toFixed(1)},${(22 - (c / max) * 20).toFixed(1)}`).join(" ");
  return (
    <svg class="sparkline" width="100" height="24" viewBox="0 0 100 24" aria-hidden="true" focusable="false">
      <polyline points={points} fill="none" stroke="#1e3a8a" stroke-width="2" />
    </svg>
  );
}

export interface ProjectProps {
  shell: ShellProps;
  project: ProjectItem | null;
  name: string;
  runs: RunBriefItem[];
  trend: CheckTrend;
  /** The next (older) page of runs, when there is one. */
  olderHref: string | null;
}

export function ProjectView(props: ProjectProps) {
  const { project, trend } = props;
  return (
    <DashboardPage
      shell={props.shell}
      title={`Project ${props.name}`}
      description="A project's runs, newest first, and how each check's failures went over its last runs."
    >
      <p>
        <a href="/dashboard/projects">All projects</a>
      </p>
      {!project ? (
        <p>This organization has no project of that name: a project is created by its first run.</p>
      ) : (
        <>
          <p>
            Base branch <code safe>{project.baseBranch}</code>.{" "}
            {project.baselineRunId ? (
              <>
                Baseline: <a href={runLink(project.baselineRunId)}>{project.baselineRunId}</a> (
                {project.baselineBy === "explicit" ? "set explicitly" : "the latest on the base branch"}).
              </>
            ) : (
              "No baseline yet: the first completed run on the base branch becomes it."
            )}
          </p>
          <h2>Failures per check</h2>
          {trend.checks.length === 0 ? (
            <p>
              {trend.runs.length
                ? `No check failed in the last ${trend.runs.length === 1 ? "run" : `${trend.runs.length} runs`}.`
                : "No runs yet."}
            </p>
          ) : (
            <>
              <p>
                Over the last {String(trend.runs.length)} {trend.runs.length === 1 ? "run" : "runs"}, oldest first: the
                pages on which each check failed (accepted failures aside).
              </p>
              <table class="cards-narrow">
                <caption class="visually-hidden">Failures per check over the last runs</caption>
                <thead>
                  <tr>
                    <th scope="col">Check</th>
                    <th scope="col">Trend</th>
                    <th scope="col">Fails per run</th>
                    <th scope="col">Latest</th>
                  </tr>
                </thead>
                <tbody>
                  {trend.checks.map((c) => (
                    <tr>
                      <th scope="row" data-label="Check">
                        <code safe>{c.validationId}</code>
                      </th>
                      <td data-label="Trend">
                        <Sparkline counts={c.counts} />
                      </td>
                      <td data-label="Fails per run">{c.counts.join(" → ")}</td>
                      <td data-label="Latest">{String(c.counts[c.counts.length - 1] ?? 0)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
      <h2>Runs</h2>
      {props.runs.length === 0 ? (
        <p>No runs yet.</p>
      ) : (
        <ul class="cards">
          {props.runs.map((r) => (
            <li id={r.runId}>
              <p class="card-title">
                <DecisionBadge decision={r.decision} /> <a href={runLink(r.runId)}>{r.runId}</a>
              </p>
              <p>
                <Source run={r} />, {when(r.createdAt)}. {String(r.totals.pages)}{" "}
                {r.totals.pages === 1 ? "page" : "pages"}: {String(r.totals.passed)} passed, {String(r.totals.blocked)}{" "}
                blocked.
                {r.counts ? (
                  <>
                    {" "}
                    {String(r.counts.newFailures)} new, {String(r.counts.fixed)} fixed, {String(r.counts.stillFailing)}{" "}
                    still failing, {String(r.counts.visualChanges)} visual changes.
                  </>
                ) : (
                  ""
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      {props.olderHref ? (
        <p>
          <a href={props.olderHref} rel="next">
            Older runs
          </a>
        </p>
      ) : (
        ""
      )}
    </DashboardPage>
  );
}
