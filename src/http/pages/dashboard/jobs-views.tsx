import { DashboardPage, type ShellProps } from "./shell";
import { ScrollRegion } from "../layout";

/** What the pages show of a job (the shape the job operations answer). */
export interface JobItem {
  jobId: string;
  type: string;
  status: string;
  subject: {
    url?: string;
    baseUrl?: string;
    htmlBytes?: number;
    emailSubject?: string;
    testEmail?: string;
    expiresAt?: string;
  };
  summary: { pass: number; fail: number; error: number; passed: boolean };
  results: ResultItem[];
  skipped_validations: { validationId: string; reason: string; message: string }[];
  credits: { charged: number; refunded: number; net: number };
  email?: { from: string; subject: string; expectedSubject?: string; subjectMatches?: boolean };
  warnings?: string[];
  interruption?: { message: string };
  createdAt: string;
  completedAt: string | null;
}

export interface ResultItem {
  validationId: string;
  name: string;
  verdict: string;
  severity: string;
  reason?: string;
  reasoning: string;
  findings: {
    message: string;
    selector?: string;
    url?: string;
    viewport?: string;
    text?: string;
    measured?: Record<string, unknown>;
  }[];
  captures?: { viewport: string; screenshotUrl: string }[];
  note?: string;
  reasonCode?: string;
  judge?: { model: string; promptVersion: string; images: unknown[]; usage?: { totalTokens: number } };
}

/** An email job's message: its top-level headers in order, and where to download it. */
export interface ReceivedEmail {
  downloadUrl: string;
  bytes: number;
  headers: { name: string; value: string }[];
}

const when = (iso: string | null | undefined) =>
  iso ? <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time> : "not yet";

/** The subject in words: the URL, the HTML and its base URL, or the email's test address and subject. */
function Subject(props: { job: JobItem }) {
  const { job } = props;
  if (job.type === "url") return <span safe>{job.subject.url ?? ""}</span>;
  if (job.type === "static_html") {
    return (
      <>
        HTML at <span safe>{job.subject.baseUrl ?? ""}</span>
      </>
    );
  }
  const subject = job.email?.subject ?? job.subject.emailSubject;
  return (
    <>
      Email to <span safe>{job.subject.testEmail ?? ""}</span>
      {subject !== undefined ? (
        <>
          : “<span safe>{subject}</span>”
        </>
      ) : (
        ""
      )}
    </>
  );
}

const Verdicts = (props: { summary: JobItem["summary"] }) => (
  <>
    <span class="pass">{String(props.summary.pass)} pass</span>,{" "}
    <span class="fail">{String(props.summary.fail)} fail</span>,{" "}
    <span class="error">{String(props.summary.error)} error</span>
  </>
);

const Credits = (props: { credits: JobItem["credits"] }) => (
  <>
    {String(props.credits.charged)} charged{props.credits.refunded ? `, ${props.credits.refunded} refunded` : ""}
  </>
);

export interface JobsListProps {
  shell: ShellProps;
  jobs: JobItem[];
  statuses: string[];
  /** The status filtered on, if any. */
  status?: string;
  /** A page size other than the default, kept by the filter form. */
  limit?: string;
  /** Past the first page: the first page's link (the same filter). */
  firstPage?: string;
  /** The next page's link (the filter and the cursor), when there is one. */
  nextPage?: string;
}

export function JobsListView(props: JobsListProps) {
  return (
    <DashboardPage
      shell={props.shell}
      title="Jobs"
      description="Your organization's jobs, newest first, with their verdicts and credits."
    >
      <form method="get" action="/dashboard/jobs">
        <label for="job-status">Status</label>
        <select id="job-status" name="status">
          <option value="" selected={!props.status}>
            Any status
          </option>
          {props.statuses.map((s) => (
            <option value={s} selected={s === props.status}>
              {s}
            </option>
          ))}
        </select>
        {props.limit ? <input type="hidden" name="limit" value={props.limit} /> : ""}
        <button type="submit">Filter</button>
      </form>
      <h2>{props.firstPage ? "Older jobs" : "Newest jobs"}</h2>
      {props.jobs.length === 0 ? (
        <p>
          {props.status ? `No ${props.status} jobs.` : "No jobs yet. Run one with POST /api/jobs or the run_job tool."}
        </p>
      ) : (
        <ScrollRegion label="Jobs">
          <table>
            <caption class="visually-hidden">Jobs</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Subject</th>
                <th scope="col">Verdicts</th>
                <th scope="col">Credits</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {props.jobs.map((job) => (
                <tr id={job.jobId}>
                  <td>
                    <a href={`/dashboard/jobs/${job.jobId}`}>
                      <code safe>{job.jobId}</code>
                    </a>
                  </td>
                  <td>{job.status}</td>
                  <td>
                    <Subject job={job} />
                  </td>
                  <td>
                    <Verdicts summary={job.summary} />
                  </td>
                  <td>
                    <Credits credits={job.credits} />
                  </td>
                  <td>{when(job.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {props.firstPage || props.nextPage ? (
        <nav aria-label="Pages">
          {props.firstPage ? <a href={props.firstPage}>Newest jobs</a> : ""}
          {props.firstPage && props.nextPage ? " · " : ""}
          {props.nextPage ? (
            <a href={props.nextPage} rel="next">
              Next page
            </a>
          ) : (
            ""
          )}
        </nav>
      ) : (
        ""
      )}
    </DashboardPage>
  );
}

function Findings(props: { findings: ResultItem["findings"] }) {
  if (props.findings.length === 0) return "";
  return (
    <ScrollRegion label="Findings">
      <table>
        <caption class="visually-hidden">Findings</caption>
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">Element</th>
            <th scope="col">Where</th>
            <th scope="col">Measured</th>
          </tr>
        </thead>
        <tbody>
          {props.findings.map((f) => (
            <tr>
              <td safe>{f.message}</td>
              <td>
                {f.selector ? <code safe>{f.selector}</code> : ""}
                {f.text ? (
                  <>
                    {" "}
                    “<span safe>{f.text}</span>”
                  </>
                ) : (
                  ""
                )}
              </td>
              <td>
                {f.viewport ? <span safe>{f.viewport}</span> : ""}
                {f.url ? (
                  <>
                    {" "}
                    <span safe>{f.url}</span>
                  </>
                ) : (
                  ""
                )}
              </td>
              <td>{f.measured ? <code safe>{JSON.stringify(f.measured)}</code> : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A screenshot as a thumbnail that opens the full image (viewable large). */
function Shot(props: { label: string; url: string }) {
  return (
    <figure class="shot">
      <a href={props.url}>
        <img src={props.url} alt={`Screenshot at ${props.label}`} width="320" />
      </a>
      <figcaption>
        <span safe>{props.label}</span>: <a href={props.url}>view large</a>
      </figcaption>
    </figure>
  );
}

function Result(props: { jobId: string; result: ResultItem }) {
  const r = props.result;
  return (
    <section id={`result-${r.validationId}`} aria-labelledby={`result-${r.validationId}-heading`}>
      <h3 id={`result-${r.validationId}-heading`}>
        <span safe>{r.name}</span>:{" "}
        <span class={r.verdict}>{r.reasonCode === "NEEDS_REVIEW" ? "needs review" : r.verdict}</span>
      </h3>
      <p>
        <code safe>{r.validationId}</code>, severity {r.severity}.{" "}
        <a href={`/dashboard/jobs/${encodeURIComponent(props.jobId)}/feedback/${encodeURIComponent(r.validationId)}`}>
          Looks wrong? Tell us about <span safe>{r.name}</span>
        </a>
      </p>
      {r.reason ? (
        <p>
          <strong>Reason:</strong> <span safe>{r.reason}</span>
        </p>
      ) : (
        ""
      )}
      {r.reasoning ? <p safe>{r.reasoning}</p> : ""}
      {r.judge ? (
        <p>
          Judged by the vision model <code safe>{r.judge.model}</code> (prompt {r.judge.promptVersion}), on{" "}
          {String(r.judge.images.length)} image(s)
          {r.judge.usage ? `, ${r.judge.usage.totalTokens} tokens` : ""}.
        </p>
      ) : (
        ""
      )}
      <Findings findings={r.findings} />
      {r.captures?.length ? (
        <p>
          Screenshots:{" "}
          {r.captures.map((c, i) => (
            <>
              {i ? ", " : ""}
              <a href={c.screenshotUrl} safe>
                {c.viewport}
              </a>
            </>
          ))}
        </p>
      ) : (
        ""
      )}
    </section>
  );
}

function EmailSection(props: { job: JobItem; email: ReceivedEmail | null }) {
  const { job, email } = props;
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">The message</h2>
      {job.warnings?.map((w) => (
        <p class="notice" safe>
          {w}
        </p>
      ))}
      {email ? (
        <>
          <p>
            <a href={email.downloadUrl} download={`${job.jobId}.eml`}>
              Download the raw message (.eml, {String(email.bytes)} bytes)
            </a>
          </p>
          <ScrollRegion label="The message's headers">
            <table>
              <caption class="visually-hidden">The message's headers</caption>
              <thead>
                <tr>
                  <th scope="col">Header</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {email.headers.map((h) => (
                  <tr>
                    <th scope="row" safe>
                      {h.name}
                    </th>
                    <td class="header-value" safe>
                      {h.value}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      ) : (
        <p>
          No message has arrived{job.status === "pending" ? " yet" : ""}. Send it to{" "}
          <code safe>{job.subject.testEmail ?? ""}</code>
          {job.subject.expiresAt ? <> before {when(job.subject.expiresAt)}</> : ""}.
        </p>
      )}
    </section>
  );
}

export interface JobPageProps {
  shell: ShellProps;
  job: JobItem;
  /** Email jobs: the message, once one arrived. */
  email: ReceivedEmail | null;
}

export function JobPageView(props: JobPageProps) {
  const { job } = props;
  // Each screenshot once, in the order the results name them (a viewport, or a mail client at a form factor).
  const shots = new Map<string, string>();
  for (const r of job.results)
    for (const c of r.captures ?? []) if (!shots.has(c.screenshotUrl)) shots.set(c.screenshotUrl, c.viewport);
  return (
    <DashboardPage
      shell={props.shell}
      title={`Job ${job.jobId}`}
      description="One job: its verdicts with their reasons and findings, screenshots and credits."
    >
      <p>
        <a href="/dashboard/jobs">All jobs</a>
      </p>
      {job.interruption ? (
        <p class="notice" safe>
          {job.interruption.message}
        </p>
      ) : (
        ""
      )}
      <ScrollRegion label="The job">
        <table>
          <caption class="visually-hidden">The job</caption>
          <tbody>
            <tr>
              <th scope="row">Status</th>
              <td>
                {job.status}
                {job.status === "completed" ? (job.summary.passed ? ": passed" : ": not passed") : ""}
              </td>
            </tr>
            <tr>
              <th scope="row">Subject</th>
              <td>
                <Subject job={job} />
              </td>
            </tr>
            <tr>
              <th scope="row">Verdicts</th>
              <td>
                <Verdicts summary={job.summary} />
              </td>
            </tr>
            <tr>
              <th scope="row">Credits</th>
              <td>
                {String(job.credits.charged)} charged, {String(job.credits.refunded)} refunded,{" "}
                {String(job.credits.net)} net
              </td>
            </tr>
            <tr>
              <th scope="row">Created</th>
              <td>{when(job.createdAt)}</td>
            </tr>
            <tr>
              <th scope="row">Completed</th>
              <td>{when(job.completedAt)}</td>
            </tr>
          </tbody>
        </table>
      </ScrollRegion>
      {job.type === "email" ? <EmailSection job={job} email={props.email} /> : ""}
      <h2>Verdicts</h2>
      {job.results.length === 0 ? (
        <p>No verdicts yet.</p>
      ) : (
        job.results.map((r) => <Result jobId={job.jobId} result={r} />)
      )}
      {job.skipped_validations.length ? (
        <>
          <h2>Skipped checks</h2>
          <ul>
            {job.skipped_validations.map((s) => (
              <li>
                <code safe>{s.validationId}</code>: <span safe>{s.message}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        ""
      )}
      {shots.size ? (
        <>
          <h2>Screenshots</h2>
          <p>The image links are temporary share links: reload this page for fresh ones.</p>
          <div class="shots">
            {[...shots].map(([url, label]) => (
              <Shot url={url} label={label} />
            ))}
          </div>
        </>
      ) : (
        ""
      )}
    </DashboardPage>
  );
}
