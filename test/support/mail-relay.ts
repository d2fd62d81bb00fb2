import { SMTPServer } from "smtp-server";
import PostalMime from "postal-mime";
import type { AddressInfo } from "node:net";
import { startServer, type TestServer } from "./harness";

export interface RelayedMail {
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP server on loopback standing in for the outbound relay (ASSAY_MAIL_RELAY_URL): it keeps what it is handed. */
export interface MailRelay {
  url: string;
  messages: RelayedMail[];
  /** The sign-in link in the newest message to this address (the server answers once the relay took it). */
  linkFor(email: string): Promise<string>;
  /** The invitation link in the newest message to this address. */
  invitationFor(email: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startMailRelay(): Promise<MailRelay> {
  const messages: RelayedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        for (const rcpt of session.envelope.rcptTo)
          messages.push({ to: rcpt.address, subject: parsed.subject ?? "", text: parsed.text ?? "" });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const newestLink = async (email: string, path: string) => {
    for (let i = 0; i < 100; i++) {
      const mail = messages.findLast((m) => m.to.toLowerCase() === email.toLowerCase());
      const link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => new URL(l).pathname === path);
      if (link) return link;
      await Bun.sleep(50);
    }
    throw new Error(`no ${path} link reached the relay for ${email}`);
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    linkFor: (email) => newestLink(email, "/api/session/callback"),
    invitationFor: (email) => newestLink(email, "/api/invitations/callback"),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SignedIn {
  /** The Cookie header value of the session. */
  cookie: string;
  csrfToken: string;
  customerId: string;
  personId: string;
}

/** Opens a sign-in link as a browser would (no redirect followed) and returns the Set-Cookie it answered. */
export async function openLink(link: string, cookie?: string): Promise<Response> {
  return fetch(link, { redirect: "manual", headers: cookie ? { cookie } : {} });
}

export const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

/** Signs in through the real flow: ask for a link, read it from the relay, open it, read the session. */
export async function signIn(server: TestServer, relay: MailRelay, email: string): Promise<SignedIn> {
  const asked = await server.api("POST", "/api/session/email", { body: { email } });
  if (asked.status !== 202) throw new Error(`sign-in link refused: ${asked.status} ${JSON.stringify(asked.body)}`);
  return signInThrough(server, await relay.linkFor(email));
}

/** Opens a link that signs in (a sign-in or an invitation link) as a browser would, and reads the session it started. */
export async function signInThrough(server: TestServer, link: string): Promise<SignedIn> {
  const res = await openLink(link);
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = cookieOf(res);
  const session = await server.api("GET", "/api/session", { headers: { cookie } });
  if (session.status !== 200)
    throw new Error(`no session after sign-in: ${session.status} ${JSON.stringify(session.body)}`);
  return {
    cookie,
    csrfToken: session.body.csrfToken,
    customerId: session.body.customerId,
    personId: session.body.personId,
  };
}

/** Headers of a request made in a session (with its CSRF token unless told otherwise). */
export const inSession = (s: SignedIn, csrf: string | null = s.csrfToken): Record<string, string> => ({
  cookie: s.cookie,
  ...(csrf === null ? {} : { "x-csrf-token": csrf }),
});

/** A server whose sign-in and invitation mail goes to a local relay: what every page test starts with. */
export async function startServerWithRelay(
  env: Record<string, string> = {},
): Promise<{ relay: MailRelay; server: TestServer; stop(): Promise<void> }> {
  const relay = await startMailRelay();
  const server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url, ...env });
  return {
    relay,
    server,
    async stop() {
      await server.stop();
      await relay.stop();
    },
  };
}
