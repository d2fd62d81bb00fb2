import { DashboardPage, type ShellProps } from "./shell";
import { NoJobsYet, StartJob, type StartJobProps } from "./start-job-views";
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
  /** The decision under the default threshold, and which checks made it. */
  overallPassPolicy?: {
    decision: string;
    blockingRequired: string[];
    blockingProhibited: string[];
    undecided: string[];
    warnings: string[];
  };
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
    /** A check judged in several engines: the one the finding was measured in. */
    engine?: string;
    text?: string;
    measured?: Record<string, unknown>;
  }[];
  /** caption: an email render's mail client and mode ("Apple Mail, iPhone, dark"), or a size and its engine. */
  captures?: { viewport: string; engine: string; screenshotUrl: string; caption?: string }[];
  /** Email renders (verbose): what each client's profile did to the message. */
  renders?: RenderItem[];
  note?: string;
  reasonCode?: string;
  judge?: { model: string; promptVersion: string; images: unknown[]; usage?: { totalTokens: number } };
}

/** One email render as a verbose result lists it: the client, how it darkened the message, and its changes. */
export interface RenderItem {
  clientId: string;
  formFactor: string;
  darkMode?: { method: string; extent?: string; darkened: boolean; how: string };
  changes: {
    action: string;
    target: string;
    selector?: string;
    line?: number;
    rule: string;
    source: string;
    count: number;
  }[];
  changesOmitted: number;
  sources: Record<string, { name: string; title: string; url: string; checked: string }>;
}

/** An email job's message as received: its headers in order, parts, attachments, links, and where to download it. */
export interface ReceivedEmail {
  downloadUrl: string;
  bytes: number;
  headers: { name: string; value: string }[];
  html: string | null;
  text: string | null;
  /** The raw message as text, cut at SOURCE_LIMIT characters (the download has it whole). */
  source: string;
  sourceCut: boolean;
  attachments: { filename: string | null; mimeType: string; bytes: number; inline: boolean }[];
  /** The HTML part's links, in order, de-duplicated. */
  links: { href: string; text: string }[];
}

export const when = (iso: string | null | undefined) =>
  iso ? <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time> : "not yet";

/** The subject in words: the URL, the HTML and its base URL, or the email's test address and subject. */
export function Subject(props: { job: JobItem }) {
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

export const Verdicts = (props: { summary: JobItem["summary"] }) => (
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
  /** The forms that start a job. */
  start: StartJobProps;
  /** Why the last form was refused. */
  message?: string;
}

export function JobsListView(props: JobsListProps) {
  return (
    <DashboardPage
      shell={props.shell}
      title="Jobs"
      description="Your organization's jobs, newest first, with their verdicts and credits."
      message={props.message}
    >
      <StartJob {...props.start} />
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
        props.status || props.firstPage ? (
          <p>{props.status ? `No ${props.status} jobs.` : "No older jobs."}</p>
        ) : (
          <NoJobsYet origin={props.start.origin} />
        )
      ) : (
        <ScrollRegion label="Jobs">
          <table class="cards-narrow">
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
                  <td data-label="Job">
                    <a href={`/dashboard/jobs/${job.jobId}`}>
                      <code safe>{job.jobId}</code>
                    </a>
                  </td>
                  <td data-label="Status">{job.status}</td>
                  <td data-label="Subject" class="long">
                    <Subject job={job} />
                  </td>
                  <td data-label="Verdicts">
                    <Verdicts summary={job.summary} />
                  </td>
                  <td data-label="Credits">
                    <Credits credits={job.credits} />
                  </td>
                  <td data-label="Created">{when(job.createdAt)}</td>
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
