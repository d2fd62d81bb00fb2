import { Csrf, DashboardPage, SecretOnce, type ShellProps } from "./shell";
import { ScrollRegion } from "../layout";

/** An endpoint as the webhook operations answer it. */
export interface EndpointItem {
  endpointId: string;
  url: string;
  events: string[];
  description: string | null;
  createdAt: string;
  secretRotatedAt: string | null;
  deliveries: { pending: number; delivered: number; failed: number };
}

export interface AttemptItem {
  attempt: number;
  attemptedAt: string;
  status: string;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
}

export interface DeliveryItem {
  deliveryId: string;
  eventType: string;
  subjectId: string;
  status: string;
  createdAt: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: AttemptItem[];
}

export interface WebhooksProps {
  shell: ShellProps;
  endpoints: EndpointItem[];
  /** The event types an endpoint may subscribe to. */
  eventTypes: readonly string[];
  /** An endpoint just registered or rotated, with its secret: shown once, here. */
  secret?: EndpointItem & { secret: string };
  done?: string;
  message?: string;
}

export interface DeliveriesProps {
  shell: ShellProps;
  endpoint: EndpointItem;
  deliveries: DeliveryItem[];
  /** The link to the next (older) page, when there is one. */
  olderHref: string | null;
  done?: string;
  message?: string;
}

const when = (iso: string | null) =>
  iso ? <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time> : "never";

const nameOf = (e: EndpointItem) => e.description ?? e.url;

export function WebhooksView(props: WebhooksProps) {
  const { shell } = props;
  return (
    <DashboardPage
      shell={shell}
      title="Webhooks"
      description="The endpoints your organization's settled jobs are delivered to, signed, instead of polling."
      done={props.done}
      message={props.message}
    >
      {props.secret ? (
        <SecretOnce name={nameOf(props.secret)} secret={props.secret.secret}>
          <p>
            Copy it now: it is shown only this once. Your receiver verifies each delivery's webhook-signature with it
            (Standard Webhooks); deliveries attempted from now on are signed with it alone.
          </p>
        </SecretOnce>
      ) : (
        ""
      )}
      <h2>Your endpoints</h2>
      {props.endpoints.length === 0 ? (
        <p>No endpoints yet: add one below, and a request reaches it each time a job settles.</p>
      ) : (
        <ScrollRegion label="Webhook endpoints">
          <table class="cards-narrow">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">Added</th>
                <th scope="col">Secret rotated</th>
                <th scope="col">Deliveries</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.endpoints.map((e) => (
                <tr id={e.endpointId}>
                  <td data-label="URL" class="long">
                    <code safe>{e.url}</code>
                  </td>
                  <td data-label="Events">{e.events.join(", ")}</td>
                  <td data-label="Description" safe>
                    {e.description ?? ""}
                  </td>
                  <td data-label="Added">{when(e.createdAt)}</td>
                  <td data-label="Secret rotated">{when(e.secretRotatedAt)}</td>
                  <td data-label="Deliveries">
                    <a href={`/dashboard/webhooks/${e.endpointId}`}>
                      {String(e.deliveries.delivered)} delivered, {String(e.deliveries.pending)} pending,{" "}
                      {String(e.deliveries.failed)} failed
                    </a>
                  </td>
                  <td data-label="Actions">
                    <form method="post" action={`/dashboard/webhooks/${e.endpointId}/rotate`} class="inline-form">
                      <Csrf token={shell.csrfToken} />
                      <button type="submit" class="small secondary" aria-label={`Rotate secret of ${nameOf(e)}`}>
                        Rotate secret
                      </button>
                    </form>{" "}
                    <form method="post" action={`/dashboard/webhooks/${e.endpointId}/delete`} class="inline-form">
                      <Csrf token={shell.csrfToken} />
                      <button type="submit" class="small secondary" aria-label={`Delete ${nameOf(e)}`}>
                        Delete
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <h2>Add an endpoint</h2>
      <form method="post" action="/dashboard/webhooks">
        <Csrf token={shell.csrfToken} />
        <label for="webhook-url">URL</label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          maxlength="2000"
          placeholder="https://hooks.example.com/assay"
          required
        />
        <fieldset>
          <legend>Events</legend>
          {props.eventTypes.map((type) => (
            <p>
              <input
                type="checkbox"
                id={`event-${type}`}
                name="events"
                value={type}
                checked={type === "job.completed"}
              />
              <label class="inline" for={`event-${type}`}>
                <code>{type}</code>
              </label>
            </p>
          ))}
        </fieldset>
        <label for="webhook-description">Description (optional)</label>
        <input id="webhook-description" name="description" maxlength="200" placeholder="CI, Slack relay…" />
        <button type="submit">Add endpoint</button>
      </form>
    </DashboardPage>
  );
}

/** One attempt in words: when, what came back, and what happens next. */
function Attempt(props: { a: AttemptItem }) {
  const { a } = props;
  return (
    <li>
      #{String(a.attempt)} {when(a.attemptedAt)}:{" "}
      {a.httpStatus !== null ? `HTTP ${a.httpStatus}` : <span safe>{a.error ?? "no answer"}</span>}
      {a.responseExcerpt ? (
        <>
          {" "}
          (<q safe>{a.responseExcerpt}</q>)
        </>
      ) : (
        ""
      )}
      {a.status === "retrying" ? (
        <>; next attempt {when(a.nextAttemptAt)}</>
      ) : a.status === "failed" ? (
        "; given up"
      ) : (
        ""
      )}
    </li>
  );
}

export function DeliveriesView(props: DeliveriesProps) {
  const { shell, endpoint } = props;
  return (
    <DashboardPage
      shell={shell}
      title="Webhook deliveries"
      description="Each delivery to one webhook endpoint, with every attempt, and replay."
      done={props.done}
      message={props.message}
    >
      <p>
        To <code safe>{endpoint.url}</code>
        {endpoint.description ? (
          <>
            {" "}
            (<span safe>{endpoint.description}</span>)
          </>
        ) : (
          ""
        )}
        , for {endpoint.events.join(", ")}. <a href="/dashboard/webhooks">All endpoints</a>.
      </p>
      {props.deliveries.length === 0 ? (
        <p>No deliveries yet: one is made each time an event this endpoint receives happens.</p>
      ) : (
        <ScrollRegion label="Deliveries">
          <table class="cards-narrow">
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {props.deliveries.map((d) => (
                <tr id={d.deliveryId}>
                  <td data-label="Delivery">
                    <code safe>{d.deliveryId}</code>
                    <br />
                    {when(d.createdAt)}
                  </td>
                  <td data-label="Event">
                    {d.eventType}{" "}
                    {d.eventType.startsWith("job.") ? (
                      <a href={`/dashboard/jobs/${d.subjectId}`}>
                        <code safe>{d.subjectId}</code>
                      </a>
                    ) : (
                      <code safe>{d.subjectId}</code>
                    )}
                  </td>
                  <td data-label="Status">{d.status}</td>
                  <td data-label="Attempts">
                    {d.attempts.length === 0 ? (
                      "none yet"
                    ) : (
                      <ol class="attempts">
                        {d.attempts.map((a) => (
                          <Attempt a={a} />
                        ))}
                      </ol>
                    )}
                  </td>
                  <td data-label="Next attempt">{d.nextAttemptAt ? when(d.nextAttemptAt) : "none"}</td>
                  <td data-label="Action">
                    <form
                      method="post"
                      action={`/dashboard/webhooks/${endpoint.endpointId}/deliveries/${d.deliveryId}/replay`}
                      class="inline-form"
                    >
                      <Csrf token={shell.csrfToken} />
                      <button type="submit" class="small secondary" aria-label={`Replay ${d.deliveryId}`}>
                        Replay
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {props.olderHref ? (
        <p>
          <a href={props.olderHref}>Older deliveries</a>
        </p>
      ) : (
        ""
      )}
    </DashboardPage>
  );
}
