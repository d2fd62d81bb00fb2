import { escapeHtml } from "@kitajs/html";
import { type JobItem, type ReceivedEmail, when } from "./jobs-views";

/**
 * An email job's message, as Mailpit shows one: the HTML in a sandboxed frame (no scripts, no forms, no access to
 * this site) with its images on or off, the text part, the source, the headers, the attachments and the links.
 * Each part is a disclosure, so the page works without JavaScript. While no message has come, where to send it.
 */

/** Blocks every image, background and font of the previewed HTML when images are off (the frame keeps its text). */
const IMAGES_OFF = `<meta http-equiv="Content-Security-Policy" content="img-src 'none'; font-src 'none'; media-src 'none'">`;

/**
 * The HTML the frame shows: the message's own, with the images policy in front when they are off, escaped whole for
 * the attribute (every `&` too, so the message's own character references reach the frame as written).
 */
const framed = (html: string, images: boolean) => escapeHtml(images ? html : `${IMAGES_OFF}${html}`);

function Table(props: { caption: string; rows: { name: string; value: string }[] }) {
  return (
    <table class="cards-narrow">
      <caption class="visually-hidden" safe>
        {props.caption}
      </caption>
      <tbody>
        {props.rows.map((h) => (
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
  );
}

export function EmailPreview(props: { job: JobItem; email: ReceivedEmail | null; images: boolean }) {
  const { job, email, images } = props;
  const self = `/dashboard/jobs/${encodeURIComponent(job.jobId)}`;
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
          <details open class="email-part">
            <summary>HTML</summary>
            {email.html !== null ? (
              <>
                <p>
                  Images are {images ? "on" : "off"}:{" "}
                  <a href={`${self}?images=${images ? "off" : "on"}#email-heading`}>
                    turn them {images ? "off" : "on"}
                  </a>
                  .
                </p>
                <iframe
                  class="email-frame"
                  title="The message's HTML part"
                  sandbox=""
                  referrerpolicy="no-referrer"
                  srcdoc={framed(email.html, images)}
                />
              </>
            ) : (
              <p>The message has no HTML part.</p>
            )}
          </details>
          <details class="email-part">
            <summary>Text</summary>
            {email.text !== null ? <pre safe>{email.text}</pre> : <p>The message has no text part.</p>}
          </details>
          <details class="email-part">
            <summary>Headers ({String(email.headers.length)})</summary>
            <Table caption="The message's headers" rows={email.headers} />
          </details>
          <details class="email-part">
            <summary>Attachments ({String(email.attachments.length)})</summary>
            {email.attachments.length ? (
              <ul>
                {email.attachments.map((a) => (
                  <li>
                    <span safe>{a.filename ?? "(no name)"}</span>, <code safe>{a.mimeType}</code>, {String(a.bytes)}{" "}
                    bytes{a.inline ? ", inline" : ""}
                  </li>
                ))}
              </ul>
            ) : (
              <p>None.</p>
            )}
          </details>
          <details class="email-part">
            <summary>Links ({String(email.links.length)})</summary>
            {email.links.length ? (
              <ol class="long">
                {email.links.map((l) => (
                  <li>
                    <code safe>{l.href}</code>
                    {l.text ? (
                      <>
                        {" "}
                        “<span safe>{l.text}</span>”
                      </>
                    ) : (
                      ""
                    )}
                  </li>
                ))}
              </ol>
            ) : (
              <p>The HTML part has no links.</p>
            )}
          </details>
          <details class="email-part">
            <summary>Source</summary>
            <pre class="long" safe>
              {email.source}
            </pre>
            {email.sourceCut ? <p>Cut here: download the raw message for the rest.</p> : ""}
          </details>
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
