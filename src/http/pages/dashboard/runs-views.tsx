import { ScrollRegion } from "../layout";
import { DecisionBadge } from "./badges";
import { type PageVisualItem, percentChanged, VisualDiff } from "./run-visual-views";
import { Csrf, DashboardPage, type ShellProps } from "./shell";

/** A run's page, and the shapes of runs as the run operations answer them (projects-views.tsx lists them). */

export interface RunHead {
  runId: string;
  project: string;
  branch: string | null;
  commit: string | null;
  status: string;
  createdAt: string;
  completedAt: string | null;
  failOn: string;
  decision: string;
  totals: {
    pages: number;
    settled: number;
    passed: number;
    blocked: number;
    undecided: number;
    credits: { charged: number; refunded: number; net: number };
  };
}

export interface RunBriefItem extends RunHead {
  comparedWith: string | null;
  counts: { newFailures: number; fixed: number; stillFailing: number; ignored: number; visualChanges: number } | null;
}

interface Compared {
  pageKey: string;
  validationId: string;
  reason: string;
}

export interface RunPageItem {
  index: number;
  name?: string;
  pageKey: string;
  type: string;
  jobId: string;
  status: string;
  decision: string;
  summary: { pass: number; fail: number; error: number };
  failures: { validationId: string; severity: string; reason: string; accepted?: { reason: string } }[];
  testEmail?: string;
  visual?: PageVisualItem;
}

export interface RunItem extends RunHead {
  pages: RunPageItem[];
  comparison: {
    baselineRunId: string;
    baseBranch: string;
    newFailures: Compared[];
    fixed: Compared[];
    stillFailing: Compared[];
    newPages: string[];
    pagesGone: string[];
    visualChanges: { pageKey: string; size: string; changedRatio: number }[];
  } | null;
  ignored: { pageKey: string; validationId: string; selector?: string; finding?: string; reason: string }[];
}

export const when = (iso: string | null | undefined) =>
  iso ? <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time> : "not yet";

export const runLink = (runId: string) => `/dashboard/runs/${encodeURIComponent(runId)}`;
export const projectLink = (project: string) => `/dashboard/projects/${encodeURIComponent(project)}`;

/** Where a run was built from: its branch and commit, when given. */
export const Source = (props: { run: RunHead }) => (
  <>
    {props.run.branch ? <code safe>{props.run.branch}</code> : "no branch"}
    {props.run.commit ? (
      <>
        {" at "}
        <code safe>{props.run.commit}</code>
      </>
    ) : (
      ""
    )}
  </>
);

/** A list of (page, check, reason) rows, each page linking to its job. */
function ComparedList(props: { id: string; title: string; items: Compared[]; jobOf: (pageKey: string) => string }) {
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>
        {props.title} ({String(props.items.length)})
      </h2>
      {props.items.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul class="cards" id={props.id}>
          {props.items.map((f) => (
            <li>
              <code safe>{f.validationId}</code> on{" "}
              <a href={props.jobOf(f.pageKey)} safe>
                {f.pageKey}
              </a>
              <br />
              <span safe>{f.reason}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export interface RunProps {
  shell: ShellProps;
  run: RunItem;
  /** The project's baseline now: whether the form to set this run as the baseline shows. */
  baselineRunId: string | null;
  done?: string;
  message?: string;
}

/** Without a comparison, every failure not accepted counts as new (the project's first run, or while running). */
function failuresOf(run: RunItem): Compared[] {
  return run.pages.flatMap((p) =>
    p.failures
      .filter((f) => !f.accepted)
      .map((f) => ({ pageKey: p.pageKey, validationId: f.validationId, reason: f.reason })),
  );
}

export function RunView(props: RunProps) {
  const { run } = props;
  const jobs = new Map(run.pages.map((p) => [p.pageKey, `/dashboard/jobs/${encodeURIComponent(p.jobId)}`]));
  const jobOf = (pageKey: string) => jobs.get(pageKey) ?? "#pages";
  const comparison = run.comparison;
  const changed = run.pages.filter((p) => p.visual?.sizes.length);
  const finished = run.status !== "running";
  return (
    <DashboardPage
      shell={props.shell}
      title={`Run ${run.runId}`}
      description="A run: its decision, what is new, fixed and changed against the baseline, and each page's job."
      done={props.done}
      message={props.message}
    >
      <section class={`decision decision-${run.decision}`} aria-label="Decision">
        <p class="decision-line">
          <DecisionBadge decision={run.decision} />{" "}
          {run.decision === "pending"
            ? `${run.totals.settled} of ${run.totals.pages} pages checked so far.`
            : `${run.totals.blocked} of ${run.totals.pages} ${run.totals.pages === 1 ? "page" : "pages"} blocked, ${run.totals.passed} passed${run.totals.undecided ? `, ${run.totals.undecided} undecided` : ""}.`}
        </p>
        <p>
          Project{" "}
          <a href={projectLink(run.project)} safe>
            {run.project}
          </a>
          , <Source run={run} />. Blocks on <code safe>{run.failOn}</code>.{" "}
          {comparison ? (
            <>
              Compared with <a href={runLink(comparison.baselineRunId)}>{comparison.baselineRunId}</a> (
              <code safe>{comparison.baseBranch}</code>).
            </>
          ) : finished ? (
            "No baseline to compare with: every failure counts as new."
          ) : (
            "Compared with the baseline once every page is checked."
          )}
        </p>
        <p>
          Started {when(run.createdAt)}, {finished ? <>finished {when(run.completedAt)}</> : "still running"}.{" "}
          {String(run.totals.credits.net)} credits ({String(run.totals.credits.charged)} charged,{" "}
          {String(run.totals.credits.refunded)} refunded).
        </p>
      </section>
      <ComparedList
        id="new-failures"
        title="New failures"
        items={comparison ? comparison.newFailures : failuresOf(run)}
        jobOf={jobOf}
      />
      {comparison ? <ComparedList id="fixed" title="Fixed" items={comparison.fixed} jobOf={jobOf} /> : ""}
      {changed.length ? (
        <section aria-labelledby="visual-heading">
          <h2 id="visual-heading">Visual changes ({String(comparison?.visualChanges.length ?? 0)})</h2>
          {changed.map((p) => (
            <section aria-label={`Visual changes of ${p.pageKey}`}>
              <h3>
                <a href={jobOf(p.pageKey)} safe>
                  {p.pageKey}
                </a>
                {p.visual?.changed
                  ? `: changed, up to ${percentChanged(Math.max(...p.visual.sizes.map((s) => s.changedRatio)))}`
                  : ": unchanged"}
              </h3>
              <VisualDiff pageKey={p.pageKey} visual={p.visual} />
            </section>
          ))}
        </section>
      ) : (
        ""
      )}
      {comparison ? (
        <ComparedList id="still-failing" title="Still failing" items={comparison.stillFailing} jobOf={jobOf} />
      ) : (
        ""
      )}
      {comparison && (comparison.newPages.length || comparison.pagesGone.length) ? (
        <p>
          {comparison.newPages.length ? (
            <>
              New pages: <span safe>{comparison.newPages.join(", ")}</span>.{" "}
            </>
          ) : (
            ""
          )}
          {comparison.pagesGone.length ? (
            <>
              Pages gone since the baseline: <span safe>{comparison.pagesGone.join(", ")}</span>.
            </>
          ) : (
            ""
          )}
        </p>
      ) : (
        ""
      )}
      <h2 id="pages">Pages ({String(run.pages.length)})</h2>
      <ScrollRegion label="Pages">
        <table class="cards-narrow">
          <caption class="visually-hidden">The run's pages</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Decision</th>
              <th scope="col">Verdicts</th>
              <th scope="col">Failed checks</th>
            </tr>
          </thead>
          <tbody>
            {run.pages.map((p) => (
              <tr id={`page-${p.index}`}>
                <th scope="row" data-label="Page">
                  <a href={jobOf(p.pageKey)} safe>
                    {p.pageKey}
                  </a>
                  {p.testEmail ? (
                    <>
                      {" "}
                      (send to <code safe>{p.testEmail}</code>)
                    </>
                  ) : (
                    ""
                  )}
                </th>
                <td data-label="Decision">
                  <DecisionBadge decision={p.decision} />
                </td>
                <td data-label="Verdicts">
                  {String(p.summary.pass)} pass, {String(p.summary.fail)} fail, {String(p.summary.error)} error
                </td>
                <td data-label="Failed checks">
                  {p.failures.length
                    ? p.failures.map((f, i) => (
                        <>
                          {i ? ", " : ""}
                          <code safe>{f.validationId}</code>
                          {f.accepted ? " (accepted)" : ""}
                        </>
                      ))
                    : "none"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <section aria-labelledby="ignored-heading">
        <h2 id="ignored-heading">Accepted failures ({String(run.ignored.length)})</h2>
        {run.ignored.length === 0 ? (
          <p>None: the run's ignores accepted no failure.</p>
        ) : (
          <ul class="cards">
            {run.ignored.map((i) => (
              <li>
                <code safe>{i.validationId}</code> on{" "}
                <a href={jobOf(i.pageKey)} safe>
                  {i.pageKey}
                </a>
                {i.selector ? (
                  <>
                    {" "}
                    at <code safe>{i.selector}</code>
                  </>
                ) : (
                  ""
                )}
                {i.finding ? (
                  <>
                    {" "}
                    (“<span safe>{i.finding}</span>”)
                  </>
                ) : (
                  ""
                )}
                <br />
                Accepted: <span safe>{i.reason}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="baseline-heading">
        <h2 id="baseline-heading">Baseline</h2>
        {props.baselineRunId === run.runId ? (
          <p>This run is the project's baseline: its next runs are compared with it.</p>
        ) : finished ? (
          <form method="post" action={`${projectLink(run.project)}/baseline`}>
            <Csrf token={props.shell.csrfToken} />
            <input type="hidden" name="runId" value={run.runId} />
            <p>Compare the project's next runs with this one, until a run on its base branch completes after it.</p>
            <button type="submit">Set as baseline</button>
          </form>
        ) : (
          <p>A run can become the baseline once every page is checked.</p>
        )}
      </section>
    </DashboardPage>
  );
}
