import type { Children } from "@kitajs/html";
import { Done, Layout, Notice, SiteHeader } from "../layout";

/** What the shell shows of the session: who, for which organization, and the token its forms carry. */
export interface ShellProps {
  /** The site's public origin (PUBLIC_BASE_URL). */
  origin: string;
  email: string;
  role: string;
  customerId: string;
  csrfToken: string;
  organizations: { customerId: string; orgCode: string; role: string }[];
  /** The page's own path: the organization switcher comes back to it. */
  path: string;
}

const SECTIONS = [
  { href: "/dashboard/jobs", label: "Jobs" },
  { href: "/dashboard/projects", label: "Projects" },
  { href: "/dashboard/credits", label: "Credits" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
];

/**
 * A secret just made (a key's, a webhook endpoint's), shown once with what to do with it (`children`) and a copy
 * button: the one place the dashboard uses JavaScript; without it, select and copy.
 */
export function SecretOnce(props: { name: string; secret: string; children: Children }) {
  return (
    <section aria-labelledby="secret-heading">
      <h2 id="secret-heading">
        The secret of <span safe>{props.name}</span>
      </h2>
      {props.children}
      <p class="secret" id="secret" safe>
        {props.secret}
      </p>
      <button type="button" id="copy-secret" class="small" hidden>
        Copy
      </button>
      <script>{`(function(){var b=document.getElementById("copy-secret");if(!navigator.clipboard)return;b.hidden=false;b.addEventListener("click",function(){navigator.clipboard.writeText(document.getElementById("secret").textContent.trim()).then(function(){b.textContent="Copied";});});})();`}</script>
    </section>
  );
}

/** The CSRF token every state-changing form of a session carries. */
export function Csrf(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** The signed-in account at the header's end: a menu with who, the organization switcher and sign-out. */
export function AccountMenu(props: ShellProps) {
  return (
    <details class="account-menu">
      <summary>Account</summary>
      <div>
        <p class="account-email" safe>
          {props.email}
        </p>
        <form method="post" action="/dashboard/organization">
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="next" value={props.path} />
          <label class="inline" for="organization">
            Organization
          </label>
          <select id="organization" name="customerId">
            {props.organizations.map((o) => (
              <option value={o.customerId} selected={o.customerId === props.customerId}>
                {o.orgCode} ({o.role})
              </option>
            ))}
          </select>
          <button type="submit" class="small secondary">
            Switch
          </button>
        </form>
        <form method="post" action="/signout">
          <Csrf token={props.csrfToken} />
          <button type="submit" class="small secondary">
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}

function Shell(props: ShellProps) {
  return (
    <SiteHeader
      class="shell"
      account={<AccountMenu {...props} />}
      sections={
        <nav aria-label="Dashboard" class="links sections">
          {SECTIONS.map((s) => (
            <a href={s.href} aria-current={props.path.startsWith(s.href) ? "page" : undefined}>
              {s.label}
            </a>
          ))}
        </nav>
      }
    />
  );
}

/** A dashboard page: the shell, a heading, what the last form did or why it was refused, then the content. */
export function DashboardPage(props: {
  shell: ShellProps;
  title: string;
  description: string;
  done?: string;
  message?: string;
  children: Children;
}) {
  return (
    <Layout
      title={props.title}
      origin={props.shell.origin}
      description={props.description}
      wide
      shell={<Shell {...props.shell} />}
    >
      <h1 safe>{props.title}</h1>
      <Done message={props.done} />
      <Notice message={props.message} />
      {props.children}
    </Layout>
  );
}

/** A page that could not be shown: the error's message and code, under the shell when signed in. */
export function ProblemPage(props: {
  origin: string;
  shell?: ShellProps;
  status: number;
  code: string;
  message: string;
}) {
  const body = (
    <>
      <p class="notice" role="alert" safe>
        {props.message}
      </p>
      <p>
        Error code <code safe>{props.code}</code> (HTTP {String(props.status)}).{" "}
        <a href="/dashboard/jobs">Back to your jobs</a>.
      </p>
    </>
  );
  return props.shell ? (
    <DashboardPage shell={props.shell} title="Not available" description="This page could not be shown.">
      {body}
    </DashboardPage>
  ) : (
    <Layout title="Not available" origin={props.origin}>
      <h1>Not available</h1>
      {body}
    </Layout>
  );
}
