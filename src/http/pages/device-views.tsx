import { Layout, Notice, SiteHeader } from "./layout";
import { SignInForm } from "./dashboard/signin-views";

/**
 * The /device page's views: templates of their props alone (./device.ts gathers what they show). Text that
 * comes from a person or a device is rendered with `safe` (escaped); attributes are always escaped.
 */

/** Every view: the site's public origin (PUBLIC_BASE_URL), for link previews. */
interface Origin {
  origin: string;
}

export interface SignInProps extends Origin {
  /** Where the sign-in link brings the person back: this page, with the code typed so far. */
  next: string;
  /** The code the device shows, when the link named one: shown before sign-in, so the person knows what they approve. */
  userCode?: string;
  oidc: boolean;
  message?: string;
}

export interface EnterCodeProps extends Origin {
  email: string;
  userCode?: string;
  message?: string;
}

export interface ApproveProps extends Origin {
  email: string;
  csrfToken: string;
  /** XXXX-XXXX */
  userCode: string;
  clientId: string | null;
  scopes: { scope: string; description: string }[];
  organizations: { customerId: string; orgCode: string; role: string }[];
  /** The organization the session acts for: chosen at first. */
  customerId: string;
  message?: string;
}

/** The header of a signed-in page: the account is the person, never "Sign in". */
const signedInHeader = (email: string) => (
  <SiteHeader
    account={
      <a href="/dashboard/jobs" safe>
        {email}
      </a>
    }
  />
);

function SignedInAs(props: { email: string }) {
  return (
    <p>
      Signed in as <strong safe>{props.email}</strong>.
    </p>
  );
}

export function SignInView(props: SignInProps) {
  return (
    <Layout title="Sign in to connect a device" origin={props.origin}>
      <h1>Sign in to connect a device</h1>
      <Notice message={props.message} />
      {props.userCode ? (
        <>
          <p>A device asks to connect with this code. Sign in, then check that your device shows it:</p>
          <p class="code" safe>
            {props.userCode}
          </p>
        </>
      ) : (
        ""
      )}
      <SignInForm next={props.next} oidc={props.oidc} />
    </Layout>
  );
}

export function EnterCodeView(props: EnterCodeProps) {
  return (
    <Layout title="Connect a device" origin={props.origin} shell={signedInHeader(props.email)}>
      <h1>Connect a device</h1>
      <SignedInAs email={props.email} />
      <Notice message={props.message} />
      <form method="get" action="/device">
        <label for="user_code">The code your device shows</label>
        <input
          id="user_code"
          name="user_code"
          value={props.userCode ?? ""}
          placeholder="XXXX-XXXX"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          required
        />
        <button type="submit">Continue</button>
      </form>
    </Layout>
  );
}

export function ApproveView(props: ApproveProps) {
  return (
    <Layout title="Approve a device" origin={props.origin} shell={signedInHeader(props.email)}>
      <h1>Approve this device?</h1>
      <SignedInAs email={props.email} />
      <Notice message={props.message} />
      <p>Check that your device shows this code:</p>
      <p class="code">{props.userCode}</p>
      <p>
        {props.clientId ? (
          <>
            <strong safe>{props.clientId}</strong> asks
          </>
        ) : (
          "The device asks"
        )}{" "}
        for a key with these scopes:
      </p>
      <ul>
        {props.scopes.map(({ scope, description }) => (
          <li>
            <code>{scope}</code>: {description}
          </li>
        ))}
      </ul>
      <form method="post" action="/device">
        <input type="hidden" name="_csrf" value={props.csrfToken} />
        <input type="hidden" name="user_code" value={props.userCode} />
        <label for="customerId">For the organization</label>
        <select id="customerId" name="customerId">
          {props.organizations.map((o) => (
            <option value={o.customerId} selected={o.customerId === props.customerId}>
              {o.orgCode} ({o.role})
            </option>
          ))}
        </select>
        <button type="submit" name="decision" value="approve">
          Approve
        </button>
        <button type="submit" name="decision" value="deny" class="secondary">
          Deny
        </button>
      </form>
    </Layout>
  );
}

export function DoneView(props: Origin & { approved: boolean }) {
  const title = props.approved ? "Device approved" : "Device denied";
  return (
    <Layout title={title} origin={props.origin}>
      <h1>{title}</h1>
      <p>
        {props.approved
          ? "Your device now receives its key. Return to it; you may close this page."
          : "The device gets no key. You may close this page."}
      </p>
    </Layout>
  );
}
