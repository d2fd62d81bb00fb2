import { Done, Layout, Notice } from "../layout";

/** The sign-in form: an emailed link (always), and the OpenID provider when one is configured. */
export function SignInForm(props: { next: string; oidc?: boolean }) {
  return (
    <>
      <p>We email you a link that signs you in and brings you back here. It works once, within 15 minutes.</p>
      <form method="post" action="/signin">
        <input type="hidden" name="next" value={props.next} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
        <button type="submit">Email me a sign-in link</button>
      </form>
      {props.oidc ? (
        <p>
          Or{" "}
          <a href={`/api/session/oidc/start?next=${encodeURIComponent(props.next)}`}>
            sign in with your company account
          </a>
          .
        </p>
      ) : (
        ""
      )}
    </>
  );
}

export function SignInPage(props: { origin: string; next: string; oidc: boolean; message?: string; done?: string }) {
  return (
    <Layout
      title="Sign in"
      origin={props.origin}
      description="Sign in to Assay to see your jobs, credits, keys and members."
    >
      <h1>Sign in to Assay</h1>
      <Done message={props.done} />
      <Notice message={props.message} />
      <SignInForm next={props.next} oidc={props.oidc} />
    </Layout>
  );
}

export function LinkSentPage(props: { origin: string; email: string; next: string; relay: boolean }) {
  return (
    <Layout title="Check your mailbox" origin={props.origin} description="A sign-in link is on its way.">
      <h1>Check your mailbox</h1>
      <p role="status">
        If <strong safe>{props.email}</strong> can sign in, a link is on its way. It signs you in once, within 15
        minutes.
      </p>
      {props.relay ? (
        ""
      ) : (
        <section aria-labelledby="no-relay-heading">
          <h2 id="no-relay-heading">Running Assay yourself?</h2>
          <p>
            This server has no mail relay, so it sends no mail: the link is written to the server's log instead (the
            line that starts <code>[mail] no relay configured</code>). Whoever runs the server can copy it from there.
          </p>
          <p>
            To email links, set <code>ASSAY_MAIL_RELAY_URL</code> to your SMTP relay (for example{" "}
            <code>smtp://user:password@smtp.example.com:587</code>) and <code>ASSAY_MAIL_FROM</code> to the sender, then
            restart the server.
          </p>
        </section>
      )}
      <p>
        No mail? <a href={`/signin?next=${encodeURIComponent(props.next)}`}>Ask for another link</a>.
      </p>
    </Layout>
  );
}
