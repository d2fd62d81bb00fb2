import { Layout, Notice, ScrollRegion } from "../layout";

/** What the try-it form was sent with, shown again when a run is refused. */
export interface PlaygroundFormValues {
  url?: string;
  html?: string;
  baseUrl?: string;
}

/** A run as the run page shows it (the operation's output, read by the page). */
export interface PlaygroundRunProps {
  runId: string;
  type: "url" | "static_html";
  subject: { url?: string; baseUrl?: string; htmlBytes?: number };
  viewport: string;
  status: string;
  interruption?: string;
  summary: { pass: number; fail: number; error: number };
  results: Array<{ validationId: string; verdict: string; reason?: string }>;
  screenshotUrl: string | null;
  expiresAt: string;
}

const DESCRIPTION = "Try Assay without an account: check a public page or pasted HTML for the web essentials, free.";

function SignUpInvitation() {
  return (
    <p>
      These are a few of Assay's checks. <a href="/signin">Sign up for the full catalog</a>: every check, every capture
      size, email jobs, and an API key for your CI.
    </p>
  );
}

/** The try-it page: a URL or pasted HTML, each its own form, posted to /playground (no JavaScript needed). */
export function PlaygroundPage(props: {
  origin: string;
  checks: string[];
  viewport: string;
  values?: PlaygroundFormValues;
  message?: string;
}) {
  const values = props.values ?? {};
  return (
    <Layout title="Playground" origin={props.origin} description={DESCRIPTION}>
      <h1>Try Assay</h1>
      <p>
        Check a page without an account, free, at {props.viewport}:{" "}
        {props.checks.map((id, i) => (
          <>
            {i ? ", " : ""}
            <code safe>{id}</code>
          </>
        ))}
        .
      </p>
      <Notice message={props.message} />
      <h2>A public page</h2>
      <form method="post" action="/playground">
        <label for="url">Its address</label>
        <input
          id="url"
          name="url"
          type="url"
          inputmode="url"
          placeholder="https://example.com/"
          value={values.url}
          required
        />
        <button type="submit">Check this page</button>
      </form>
      <h2>Pasted HTML</h2>
      <form method="post" action="/playground">
        <label for="html">The HTML</label>
        <textarea id="html" name="html" rows="8" required safe>
          {values.html ?? ""}
        </textarea>
        <label for="baseUrl">The public address it stands for</label>
        <input
          id="baseUrl"
          name="baseUrl"
          type="url"
          inputmode="url"
          value={values.baseUrl ?? "https://example.com/"}
          required
        />
        <button type="submit">Check this HTML</button>
      </form>
      <SignUpInvitation />
    </Layout>
  );
}

/**
 * One run: each verdict with its reason, the screenshot, and the invitation to sign up. Checks go by their ids: a
 * name such as "No lorem ipsum" would be filler text to the page's own no-lorem-ipsum check.
 */
export function PlaygroundRunPage(props: { origin: string; run: PlaygroundRunProps }) {
  const run = props.run;
  const subject = run.subject.url ?? `${run.subject.htmlBytes} bytes of HTML at ${run.subject.baseUrl}`;
  return (
    <Layout title="Playground run" origin={props.origin} description={DESCRIPTION} wide>
      <h1>Playground run</h1>
      <p>
        <span safe>{subject}</span> at {run.viewport}: <span class="pass">{String(run.summary.pass)} pass</span>,{" "}
        <span class="fail">{String(run.summary.fail)} fail</span>,{" "}
        <span class="error">{String(run.summary.error)} error</span>. Kept until{" "}
        <time datetime={run.expiresAt}>{run.expiresAt}</time>.
      </p>
      {run.interruption ? <Notice message={run.interruption} /> : ""}
      <ScrollRegion label="Verdicts">
        <table class="cards-narrow">
          <caption class="visually-hidden">Verdicts</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Verdict</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {run.results.map((r) => (
              <tr id={`result-${r.validationId}`}>
                <td data-label="Check">
                  <code safe>{r.validationId}</code>
                </td>
                <td data-label="Verdict" class={r.verdict}>
                  {r.verdict}
                </td>
                <td data-label="Reason" safe>
                  {r.reason ?? ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {run.screenshotUrl ? (
        <figure>
          <img src={run.screenshotUrl} alt={`The page as captured at ${run.viewport}`} width="640" />
          <figcaption>
            The page at {run.viewport}: <a href={run.screenshotUrl}>view large</a>
          </figcaption>
        </figure>
      ) : (
        ""
      )}
      <SignUpInvitation />
      <p>
        <a href="/playground">Check another page</a>
      </p>
    </Layout>
  );
}

/** A run that is not (or no longer) kept, or another refusal of the run page. */
export function PlaygroundMissingPage(props: { origin: string; message: string }) {
  return (
    <Layout title="Playground run not found" origin={props.origin} description={DESCRIPTION}>
      <h1>Playground run not found</h1>
      <Notice message={props.message} />
      <p>
        <a href="/playground">Check a page</a>
      </p>
      <SignUpInvitation />
    </Layout>
  );
}
