import { Csrf } from "./shell";

/**
 * Starting a job from the dashboard: a webpage by its URL, pasted HTML with the address it stands for, or an email
 * (the job's page then shows its test address and waits for the message). Each is a plain form posted to POST
 * /dashboard/jobs, which runs it through run_job. With no job yet, the other ways in: `assay run` and MCP.
 */

export interface SetChoice {
  id: string;
  name: string;
}

export interface StartJobProps {
  csrfToken: string;
  origin: string;
  webSets: SetChoice[];
  emailSets: SetChoice[];
  /** Open the forms (no job yet, or a form just refused). */
  open: boolean;
}

function SetSelect(props: { id: string; sets: SetChoice[] }) {
  return (
    <>
      <label for={props.id}>Checks</label>
      <select id={props.id} name="validationSetId">
        {props.sets.map((s, i) => (
          <option value={s.id} selected={i === 0}>
            {s.name}
          </option>
        ))}
      </select>
    </>
  );
}

export function StartJob(props: StartJobProps) {
  return (
    <details class="start-job" open={props.open}>
      <summary>
        <h2 id="start-heading">Start a job</h2>
      </summary>
      <div class="start-forms">
        <form method="post" action="/dashboard/jobs" aria-labelledby="start-url-heading">
          <h3 id="start-url-heading">A webpage</h3>
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="type" value="url" />
          <label for="start-url">Page URL</label>
          <input id="start-url" name="url" type="url" placeholder="https://example.com/" required />
          <SetSelect id="start-url-set" sets={props.webSets} />
          <button type="submit">Check the page</button>
        </form>
        <form method="post" action="/dashboard/jobs" aria-labelledby="start-html-heading">
          <h3 id="start-html-heading">Pasted HTML</h3>
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="type" value="static_html" />
          <label for="start-html">HTML</label>
          <textarea id="start-html" name="html" rows="6" required />
          <label for="start-base">The address it stands for</label>
          <input id="start-base" name="baseUrl" type="url" placeholder="https://example.com/page" required />
          <SetSelect id="start-html-set" sets={props.webSets} />
          <button type="submit">Check the HTML</button>
        </form>
        <form method="post" action="/dashboard/jobs" aria-labelledby="start-email-heading">
          <h3 id="start-email-heading">An email</h3>
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="type" value="email" />
          <p>You get a one-time address to send the real message to; the job's page waits for it.</p>
          <label for="start-subject">Expected subject (optional)</label>
          <input id="start-subject" name="subject" />
          <SetSelect id="start-email-set" sets={props.emailSets} />
          <button type="submit">Get a test address</button>
        </form>
      </div>
    </details>
  );
}

/** What a person with no job yet can do: the forms above, the command line, or an agent over MCP. */
export function NoJobsYet(props: { origin: string }) {
  return (
    <section aria-labelledby="no-jobs-heading">
      <h2 id="no-jobs-heading">No jobs yet</h2>
      <p>Start one with a form above, or from where you work:</p>
      <ul>
        <li>
          The command line: <code safe>{`assay login --base-url ${props.origin}`}</code>, then{" "}
          <code>assay run --url https://example.com/</code>
        </li>
        <li>
          An agent over MCP: <code>claude mcp add --scope user assay -- assay mcp</code>, then ask it to check a page
          (the <code>run_job</code> tool)
        </li>
        <li>
          The API: <code>POST /api/jobs</code> with a key from the Keys page
        </li>
      </ul>
    </section>
  );
}
