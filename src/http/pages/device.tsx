import { Elysia } from "elysia";
import { html } from "@elysiajs/html";
import { AppError } from "../../errors/app-error";
import { SCOPE_DESCRIPTIONS } from "../../domain/accounts";
import { formatUserCode } from "../../domain/device";
import { sessionMeta } from "../../operations/authorize";
import { sessionSecretOf } from "../../operations/session-cookie";
import type { Services } from "../../services/facade";
import type { SessionPrincipal } from "../../services/sessions";
import { requestIdOf } from "../request";
import { Layout } from "./layout";

/**
 * The /device page (RFC 8628's verification URI): a signed-in person enters or confirms the code a device
 * shows, sees which organization and which scopes it asks for, and approves or denies with a plain form.
 * Works without JavaScript. Signed out, it offers the email sign-in link, which brings the person back here.
 */

type PendingRequest = NonNullable<ReturnType<Services["device"]["pending"]>>;

const pagePath = (userCode?: string) => (userCode ? `/device?user_code=${encodeURIComponent(userCode)}` : "/device");

function Notice(props: { message?: string }) {
  return props.message ? (
    <p class="notice" role="alert" safe>
      {props.message}
    </p>
  ) : (
    ""
  );
}

function SignInView(props: { userCode?: string; message?: string }) {
  return (
    <Layout title="Sign in to connect a device">
      <h1>Sign in to connect a device</h1>
      <Notice message={props.message} />
      <p>We email you a link that signs you in and brings you back to this page. It works once, within 15 minutes.</p>
      <form method="post" action="/api/session/email">
        <input type="hidden" name="next" value={pagePath(props.userCode)} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
        <button type="submit">Email me a sign-in link</button>
      </form>
    </Layout>
  );
}

function EnterCodeView(props: { session: SessionPrincipal; userCode?: string; message?: string }) {
  return (
    <Layout title="Connect a device">
      <h1>Connect a device</h1>
      <p>
        Signed in as <strong safe>{props.session.email}</strong>.
      </p>
      <Notice message={props.message} />
      <form method="get" action="/device">
        <label for="user_code">The code your device shows</label>
        <input id="user_code" name="user_code" value={props.userCode ?? ""} placeholder="XXXX-XXXX" autocomplete="off" autocapitalize="characters" spellcheck="false" required />
        <button type="submit">Continue</button>
      </form>
    </Layout>
  );
}

function ApproveView(props: { session: SessionPrincipal; request: PendingRequest; organizations: { customerId: string; orgCode: string; role: string }[]; message?: string }) {
  const { session, request } = props;
  const userCode = formatUserCode(request.userCode);
  return (
    <Layout title="Approve a device">
      <h1>Approve this device?</h1>
      <p>
        Signed in as <strong safe>{session.email}</strong>.
      </p>
      <Notice message={props.message} />
      <p>Check that your device shows this code:</p>
      <p class="code">{userCode}</p>
      <p>
        {request.clientId ? (
          <>
            <strong safe>{request.clientId}</strong> asks
          </>
        ) : (
          "The device asks"
        )}{" "}
        for a key with these scopes:
      </p>
      <ul>
        {request.scopes.map((scope) => (
          <li>
            <code>{scope}</code>: {SCOPE_DESCRIPTIONS[scope]}
          </li>
        ))}
      </ul>
      <form method="post" action="/device">
        <input type="hidden" name="_csrf" value={session.csrfToken} />
        <input type="hidden" name="user_code" value={userCode} />
        <label for="customerId">For the organization</label>
        <select id="customerId" name="customerId">
          {props.organizations.map((o) => (
            <option value={o.customerId} selected={o.customerId === session.customerId}>
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

function DoneView(props: { approved: boolean }) {
  const title = props.approved ? "Device approved" : "Device denied";
  return (
    <Layout title={title}>
      <h1>{title}</h1>
      <p>{props.approved ? "Your device now receives its key. Return to it; you may close this page." : "The device gets no key. You may close this page."}</p>
    </Layout>
  );
}

/** The signed-in session a cookie names, or null (any problem reads as signed out). */
function sessionOrNull(services: Services, request: Request): SessionPrincipal | null {
  try {
    return services.sessions.authenticate(sessionSecretOf(request.headers.get("cookie")));
  } catch (e) {
    if (e instanceof AppError && e.code === "AUTH_REQUIRED") return null;
    throw e;
  }
}

export function devicePage(services: Services) {
  /** The page for a session and a typed code: the request it names to approve, else the form to type one. */
  function signedInView(session: SessionPrincipal, userCode: string | undefined, message?: string) {
    const request = userCode ? services.device.pending(userCode) : null;
    if (!request) {
      const unknown = userCode && !message ? "No pending request has this code; it may have expired or been answered. Check the code on your device." : message;
      return <EnterCodeView session={session} userCode={userCode} message={unknown} />;
    }
    return <ApproveView session={session} request={request} organizations={services.sessions.describe(session).organizations} message={message} />;
  }

  return new Elysia()
    // Rendered explicitly with `html(...)`: the plugin's detection of HTML in any route's answer stays off.
    .use(html({ autoDetect: false, contentType: "text/html; charset=utf-8" }))
    .get("/device", ({ request, query, set, html }) => {
      set.headers["cache-control"] = "no-store";
      const userCode = typeof query.user_code === "string" && query.user_code.trim() ? query.user_code.trim() : undefined;
      const session = sessionOrNull(services, request);
      return html(session ? signedInView(session, userCode) : <SignInView userCode={userCode} />);
    })
    .post("/device", ({ request, body, set, html }) => {
      set.headers["cache-control"] = "no-store";
      const form = new URLSearchParams(typeof body === "string" ? body : "");
      const userCode = form.get("user_code")?.trim() || undefined;
      let session: SessionPrincipal;
      try {
        session = services.sessions.authenticate(sessionSecretOf(request.headers.get("cookie")), { token: form.get("_csrf") });
      } catch (e) {
        if (!(e instanceof AppError) || (e.code !== "AUTH_REQUIRED" && e.code !== "CSRF_TOKEN_INVALID")) throw e;
        set.status = e.status;
        return html(<SignInView userCode={userCode} message={`${e.message} Nothing was approved.`} />);
      }
      const meta = sessionMeta(session.personId, "dashboard", requestIdOf(request));
      try {
        if (form.get("decision") === "approve") services.device.approve(session, userCode ?? "", form.get("customerId") ?? "", meta);
        else if (form.get("decision") === "deny") services.device.deny(session, userCode ?? "", meta);
        else throw new AppError("INVALID_ENUM_VALUE", "Choose Approve or Deny.", { field: "decision", allowed: ["approve", "deny"] });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        set.status = e.status;
        return html(signedInView(session, userCode, e.message));
      }
      return html(<DoneView approved={form.get("decision") === "approve"} />);
    });
}
