import { Csrf, DashboardPage, SecretOnce, type ShellProps } from "./shell";
import { ScrollRegion } from "../layout";

export interface KeyRow {
  keyId: string;
  name: string;
  displayPrefix: string;
  scopes: string[];
  status: "active" | "revoked";
  createdAt: string;
  lastUsedAt: string | null;
  rotatedAt: string | null;
  revokedAt: string | null;
}

export interface KeysProps {
  shell: ShellProps;
  keys: KeyRow[];
  /** The scopes the person's role may give a key, with what each allows. */
  scopes: { scope: string; description: string }[];
  /** A secret just minted or rotated: shown once, here. */
  secret?: { keyId: string; name: string; apiKey: string; previousValidUntil?: string };
  done?: string;
  message?: string;
}

const when = (iso: string | null) =>
  iso ? <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time> : "never";

/** A key's secret, once. */
function KeySecret(props: { secret: NonNullable<KeysProps["secret"]> }) {
  const { secret } = props;
  return (
    <SecretOnce name={secret.name} secret={secret.apiKey}>
      <p>Copy it now: it is shown only this once. Store it where your program reads it, e.g. as ASSAY_API_KEY.</p>
      {secret.previousValidUntil ? (
        <p>The previous secret keeps working until {when(secret.previousValidUntil)}, then gets 401.</p>
      ) : (
        ""
      )}
    </SecretOnce>
  );
}

export function KeysView(props: KeysProps) {
  const { shell } = props;
  return (
    <DashboardPage
      shell={shell}
      title="API keys"
      description="Mint, rotate and revoke the API keys of your organization."
      done={props.done}
      message={props.message}
    >
      {props.secret ? <KeySecret secret={props.secret} /> : ""}
      <h2>Your keys</h2>
      {props.keys.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <ScrollRegion label="API keys">
          <table class="cards-narrow">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Rotated</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr id={k.keyId}>
                  <td data-label="Name" safe>
                    {k.name}
                  </td>
                  <td data-label="Prefix">
                    <code safe>{k.displayPrefix}</code>
                  </td>
                  <td data-label="Scopes">{k.scopes.join(", ")}</td>
                  <td data-label="Created">{when(k.createdAt)}</td>
                  <td data-label="Last used">{when(k.lastUsedAt)}</td>
                  <td data-label="Rotated">{when(k.rotatedAt)}</td>
                  <td data-label="Status">{k.status === "revoked" ? <>revoked {when(k.revokedAt)}</> : "active"}</td>
                  <td data-label="Actions">
                    {k.status === "active" ? (
                      <>
                        <form method="post" action={`/dashboard/keys/${k.keyId}/rotate`} class="inline-form">
                          <Csrf token={shell.csrfToken} />
                          <button type="submit" class="small secondary" aria-label={`Rotate ${k.name}`}>
                            Rotate
                          </button>
                        </form>{" "}
                        <form method="post" action={`/dashboard/keys/${k.keyId}/revoke`} class="inline-form">
                          <Csrf token={shell.csrfToken} />
                          <button type="submit" class="small secondary" aria-label={`Revoke ${k.name}`}>
                            Revoke
                          </button>
                        </form>
                      </>
                    ) : (
                      ""
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <h2>Mint a key</h2>
      <form method="post" action="/dashboard/keys">
        <Csrf token={shell.csrfToken} />
        <label for="key-name">Name</label>
        <input id="key-name" name="name" maxlength="100" placeholder="ci, laptop…" required />
        <fieldset>
          <legend>Scopes</legend>
          {props.scopes.map(({ scope, description }) => (
            <p>
              <input
                type="checkbox"
                id={`scope-${scope}`}
                name="scopes"
                value={scope}
                checked={scope.startsWith("jobs:")}
              />
              <label class="inline" for={`scope-${scope}`}>
                <code>{scope}</code>: {description}
              </label>
            </p>
          ))}
        </fieldset>
        <button type="submit">Mint key</button>
      </form>
    </DashboardPage>
  );
}
