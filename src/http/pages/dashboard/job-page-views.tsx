import { DecisionBadge, SeverityBadge } from "./badges";
import { EmailPreview } from "./email-preview-views";
import { Screenshots } from "./job-renders-views";
import { type JobItem, type ReceivedEmail, type ResultItem, Subject, Verdicts, when } from "./jobs-views";
import { DashboardPage, type ShellProps } from "./shell";

/**
 * One job's page: the decision first (pass, blocked or undecided, and by which checks), then the blocking checks,
 * the ones that could not run, the warnings, and the passes collapsed; each finding beside its screenshot (the
 * element outlined when the finding measured its box), severities as badges, measurements in words.
 */

export interface JobPageProps {
  shell: ShellProps;
  job: JobItem;
  /** Email jobs: the message, once one arrived. */
  email: ReceivedEmail | null;
  /** Email jobs: whether the message's preview loads its images (a link turns them off and on). */
  images: boolean;
}

type Capture = NonNullable<ResultItem["captures"]>[number];

/** A measured name in words: "visibleShare" reads "visible share". */
const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** A measured value in words: numbers and text as they are, lists joined, objects as "name value" pairs. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${words(k)} ${valueText(v)}`)
      .join(", ");
  return String(value);
}

function Measured(props: { measured?: Record<string, unknown> }) {
  const entries = Object.entries(props.measured ?? {}).filter(([k]) => k !== "box");
  if (entries.length === 0) return "";
  return (
    <dl class="measured">
      {entries.map(([k, v]) => (
        <div>
          <dt safe>{words(k)}</dt>
          <dd safe>{valueText(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A finding's box in page pixels, when it measured one ({ x, y, width, height }). */
function boxOf(measured?: Record<string, unknown>): { x: number; y: number; width: number; height: number } | null {
  const box = measured?.box as Record<string, unknown> | undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const [x, y, width, height] = [n(box?.x), n(box?.y), n(box?.width), n(box?.height)];
  return x !== null && y !== null && width !== null && height !== null ? { x, y, width, height } : null;
}

const PAD = 24;

/**
 * A job still waiting (an email job's message, a page being checked): the page asks for the job every few seconds
 * (GET /api/jobs with the session) and reloads once it has settled, so the person watches it arrive; without
 * JavaScript, a link to look again. No timed refresh of the page itself (WCAG 2.2.1).
 */
function WaitForJob(props: { jobId: string }) {
  const id = JSON.stringify(props.jobId).replaceAll("<", "\\u003c");
  return (
    <>
      <p role="status">
        Waiting: this page updates itself when the job settles.{" "}
        <a href={`/dashboard/jobs/${encodeURIComponent(props.jobId)}`}>Check again</a>
      </p>
      <script>{`(function(){var id=${id};function poll(){fetch("/api/jobs?jobId="+encodeURIComponent(id),{credentials:"same-origin"}).then(function(r){return r.json();}).then(function(b){var j=b.jobs&&b.jobs[0];if(j&&j.status!=="pending"&&j.status!=="running"){location.reload();}else{setTimeout(poll,3000);}}).catch(function(){setTimeout(poll,10000);});}setTimeout(poll,3000);})();`}</script>
    </>
  );
}

/**
 * The screenshot beside a finding: with its box, the part of the screenshot around the element at full scale with
 * the element outlined; without, the screenshot as a thumbnail. Both open the full image.
 */
function FindingShot(props: { capture: Capture; label: string; measured?: Record<string, unknown> }) {
  const box = boxOf(props.measured);
  const { capture, label } = props;
  if (!box) {
    return (
      <figure class="finding-shot">
        <a href={capture.screenshotUrl}>
          <img src={capture.screenshotUrl} alt={`Screenshot at ${label}`} width="240" loading="lazy" />
        </a>
        <figcaption safe>{label}</figcaption>
      </figure>
    );
  }
  const left = Math.max(0, Math.round(box.x) - PAD);
  const top = Math.max(0, Math.round(box.y) - PAD);
  return (
    <figure class="finding-shot">
      <a href={capture.screenshotUrl} class="crop" aria-label={`The element outlined on the screenshot at ${label}`}>
        <img src={capture.screenshotUrl} alt="" style={`left:${-left}px;top:${-top}px`} loading="lazy" />
        <span
          class="outline"
          style={`left:${Math.round(box.x) - left}px;top:${Math.round(box.y) - top}px;width:${Math.round(box.width)}px;height:${Math.round(box.height)}px`}
        />
      </a>
      <figcaption safe>{label}</figcaption>
    </figure>
  );
}

/** The capture a finding was seen in: its size's (in its engine, when it names one), else the result's first. */
const captureFor = (r: ResultItem, viewport?: string, engine = "chromium") =>
  r.captures?.find((c) => c.viewport === viewport && c.engine === engine) ??
  r.captures?.find((c) => c.viewport === viewport) ??
  r.captures?.[0];

function Finding(props: { result: ResultItem; finding: ResultItem["findings"][number]; shot: boolean }) {
  const f = props.finding;
  const seenIn = captureFor(props.result, f.viewport, f.engine);
  const capture = props.shot ? seenIn : undefined;
  return (
    <li class="finding">
      <div class="finding-text">
        <p safe>{f.message}</p>
        {f.selector ? (
          <p>
            Element <code safe>{f.selector}</code>
            {f.text ? (
              <>
                {" "}
                “<span safe>{f.text}</span>”
              </>
            ) : (
              ""
            )}
          </p>
        ) : (
          ""
        )}
        {f.url || f.viewport ? (
          <p class="long">
            {f.viewport ? <>At {seenIn?.caption ?? captionOf(props.result, f.viewport)}</> : ""}
            {f.url && f.viewport ? ", " : ""}
            {f.url ? <span safe>{f.url}</span> : ""}
          </p>
        ) : (
          ""
        )}
        <Measured measured={f.measured} />
      </div>
      {capture ? (
        <FindingShot
          capture={capture}
          label={capture.caption ?? captionOf(props.result, capture.viewport)}
          measured={f.measured}
        />
      ) : (
        ""
      )}
    </li>
  );
}

/** A size or a mail client as people read it: an email render's caption (client and mode), else the size. */
function captionOf(r: ResultItem, viewport: string): string {
  return r.captures?.find((c) => c.viewport === viewport)?.caption ?? viewport;
}

/** How many findings a result lists before the rest; each beside its screenshot while they have boxes or are few. */
const SHOWN_FINDINGS = 20;

function Result(props: { jobId: string; result: ResultItem }) {
  const r = props.result;
  const shown = r.findings.slice(0, SHOWN_FINDINGS);
  // A screenshot beside each finding when it outlines an element there; else one beside the first finding.
  const boxed = shown.some((f) => boxOf(f.measured));
  return (
    <section class="result" id={`result-${r.validationId}`} aria-labelledby={`result-${r.validationId}-heading`}>
      <h3 id={`result-${r.validationId}-heading`}>
        <span safe>{r.name}</span>:{" "}
        <span class={r.verdict}>{r.reasonCode === "NEEDS_REVIEW" ? "needs review" : r.verdict}</span>
      </h3>
      <p>
        <SeverityBadge severity={r.severity} /> <code safe>{r.validationId}</code>
      </p>
      {r.reason ? <p safe>{r.reason}</p> : ""}
      {r.reasoning && r.reasoning !== r.reason ? (
        <p class="reasoning" safe>
          {r.reasoning}
        </p>
      ) : (
        ""
      )}
      {r.judge ? (
        <p>
          Judged by the vision model <code safe>{r.judge.model}</code> (prompt {r.judge.promptVersion}), on{" "}
          {String(r.judge.images.length)} image(s)
          {r.judge.usage ? `, ${r.judge.usage.totalTokens} tokens` : ""}.
        </p>
      ) : (
        ""
      )}
      {shown.length ? (
        <ul class="findings">
          {shown.map((f, i) => (
            <Finding result={r} finding={f} shot={boxed ? !!boxOf(f.measured) : i === 0} />
          ))}
        </ul>
      ) : (
        ""
      )}
      {r.findings.length > SHOWN_FINDINGS ? (
        <p>
          And {String(r.findings.length - SHOWN_FINDINGS)} more findings: the whole list is in the job's JSON (GET
          /api/jobs?jobId={props.jobId}&amp;detail=verbose).
        </p>
      ) : (
        ""
      )}
      <p class="looks-wrong">
        <a href={`/dashboard/jobs/${encodeURIComponent(props.jobId)}/feedback/${encodeURIComponent(r.validationId)}`}>
          Looks wrong?<span class="visually-hidden" safe>{` Tell us about ${r.name}`}</span>
        </a>
      </p>
    </section>
  );
}

function Results(props: { id: string; title: string; jobId: string; results: ResultItem[] }) {
  if (props.results.length === 0) return "";
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>
        {props.title} ({String(props.results.length)})
      </h2>
      {props.results.map((r) => (
        <Result jobId={props.jobId} result={r} />
      ))}
    </section>
  );
}

const names = (results: ResultItem[]) => results.map((r) => `“${r.name}”`).join(", ");

/** The decision in one sentence, naming the checks that made it. */
function DecisionText(props: {
  job: JobItem;
  decision: string;
  blocking: ResultItem[];
  undecided: ResultItem[];
  warnings: ResultItem[];
}) {
  const { job, decision, blocking, undecided, warnings } = props;
  const warned = warnings.length ? ` ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}.` : "";
  // The badge says the decision; the sentence goes on from it.
  if (decision === "blocked")
    return (
      <span safe>{`by ${blocking.length === 1 ? "" : `${blocking.length} checks: `}${names(blocking)}.${warned}`}</span>
    );
  if (decision === "undecided")
    return (
      <span
        safe
      >{`${undecided.length ? `${names(undecided)} could not run.` : "the job did not finish."}${warned}`}</span>
    );
  if (decision === "pass") return <span safe>{`nothing blocks.${warned}`}</span>;
  return job.type === "email" && job.status === "pending" ? (
    <>
      Waiting for the message at <code safe>{job.subject.testEmail ?? ""}</code>.
    </>
  ) : (
    "Being checked."
  );
}

export function JobPageView(props: JobPageProps) {
  const { job } = props;
  const policy = job.overallPassPolicy;
  const decision =
    policy?.decision ?? (job.status === "completed" ? (job.summary.passed ? "pass" : "blocked") : "pending");
  const byId = new Map(job.results.map((r) => [r.validationId, r]));
  const pick = (ids: string[] = []) => ids.map((id) => byId.get(id)).filter((r): r is ResultItem => !!r);
  const blocking = pick([...(policy?.blockingProhibited ?? []), ...(policy?.blockingRequired ?? [])]);
  const undecided = pick(policy?.undecided);
  const warnings = pick(policy?.warnings);
  const placed = new Set([...blocking, ...undecided, ...warnings]);
  const others = job.results.filter((r) => !placed.has(r) && r.verdict !== "pass");
  const passed = job.results.filter((r) => !placed.has(r) && r.verdict === "pass");
  return (
    <DashboardPage
      shell={props.shell}
      title={`Job ${job.jobId}`}
      description="One job: its decision, the checks that block it, its warnings and passes, screenshots and credits."
    >
      <p>
        <a href="/dashboard/jobs">All jobs</a>
      </p>
      <section class={`decision decision-${decision}`} aria-label="Decision">
        <p class="decision-line">
          <DecisionBadge decision={decision} />{" "}
          <DecisionText job={job} decision={decision} blocking={blocking} undecided={undecided} warnings={warnings} />
        </p>
        <p class="long">
          <Subject job={job} />
        </p>
        <p>
          <Verdicts summary={job.summary} />. Credits: {String(job.credits.charged)} charged,{" "}
          {String(job.credits.refunded)} refunded, {String(job.credits.net)} net. Created {when(job.createdAt)},
          completed {when(job.completedAt)}.
        </p>
      </section>
      {job.interruption ? (
        <p class="notice" safe>
          {job.interruption.message}
        </p>
      ) : (
        ""
      )}
      {job.status === "pending" || job.status === "running" ? <WaitForJob jobId={job.jobId} /> : ""}
      <Results id="blocking" title="Blocking" jobId={job.jobId} results={blocking} />
      <Results id="undecided" title="Could not run" jobId={job.jobId} results={undecided} />
      <Results id="warnings" title="Warnings" jobId={job.jobId} results={[...warnings, ...others]} />
      {passed.length ? (
        <details class="passed">
          <summary>
            <h2 id="passed-heading">Passed ({String(passed.length)})</h2>
          </summary>
          {passed.map((r) => (
            <Result jobId={job.jobId} result={r} />
          ))}
        </details>
      ) : (
        ""
      )}
      {job.results.length === 0 ? <p>No verdicts yet.</p> : ""}
      {job.type === "email" ? <EmailPreview job={job} email={props.email} images={props.images} /> : ""}
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
      <Screenshots job={job} />
    </DashboardPage>
  );
}
