import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventsOf, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { hidden, page, postForm } from "../support/pages";

/**
 * The keys page as a browser without JavaScript uses it: list, mint (the secret shown once), rotate (the old
 * secret works through the overlap), revoke (401 next), each form carrying the session's CSRF token; a refusal
 * shows the page again with the reason and changes nothing. Real server, real sign-in by emailed link.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay({ ASSAY_KEY_ROTATION_OVERLAP_SECONDS: "3600" }));
}, 120_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

const secretOn = (html: string) => /<p class="secret" id="secret">([^<]+)<\/p>/.exec(html)?.[1];
const org = (apiKey: string) => server.api("GET", "/api/org", { key: apiKey });

async function mint(who: SignedIn, name: string, scopes: string[]) {
  const shown = await page(server, "/dashboard/keys", who.cookie);
  return postForm(
    server,
    "/dashboard/keys",
    { _csrf: hidden(shown.text, "_csrf")!, name, scopes },
    { cookie: who.cookie },
  );
}

describe("the keys page", () => {
  test("signed out, it sends the person to sign in and back", async () => {
    const res = await page(server, "/dashboard/keys");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/signin?next=%2Fdashboard%2Fkeys");
  });

  test("mint shows the secret once; it works; the list shows the key but never the secret again", async () => {
    const who = await signIn(server, relay, uniqueEmail("keys-mint"));
    const minted = await mint(who, "ci <build>", ["jobs:read", "account:read"]);
    expect(minted.status).toBe(201);
    expect(minted.text).toContain("shown only this once");
    expect(minted.text).toContain("ci &lt;build&gt;");
    const secret = secretOn(minted.text)!;
    expect((await org(secret)).status).toBe(200);
    const listed = await page(server, "/dashboard/keys", who.cookie);
    expect(listed.status).toBe(200);
    expect(listed.text).toContain("ci &lt;build&gt;");
    expect(listed.text).not.toContain(secret);
    const minting = eventsOf(server)
      .filter((e) => e.type === "KeyMinted")
      .at(-1)!;
    expect(minting.metadata.channel).toBe("dashboard");
    expect(minting.metadata.actor).toEqual({ kind: "session", id: who.personId });
  });

  test("rotate: a new secret shown once, the old one still works within the overlap; revoke: 401 next", async () => {
    const who = await signIn(server, relay, uniqueEmail("keys-rotate"));
    const minted = await mint(who, "laptop", ["account:read"]);
    const first = secretOn(minted.text)!;
    const keyId = /<tr id="(key_[^"]+)">/.exec(minted.text.slice(minted.text.indexOf("Your keys")))![1]!;
    const rotated = await postForm(
      server,
      `/dashboard/keys/${keyId}/rotate`,
      { _csrf: who.csrfToken },
      { cookie: who.cookie },
    );
    expect(rotated.status).toBe(200);
    const second = secretOn(rotated.text)!;
    expect(second).not.toBe(first);
    expect(rotated.text).toContain("The previous secret keeps working until");
    expect((await org(first)).status).toBe(200);
    expect((await org(second)).status).toBe(200);
    const revoked = await postForm(
      server,
      `/dashboard/keys/${keyId}/revoke`,
      { _csrf: who.csrfToken },
      { cookie: who.cookie },
    );
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe("/dashboard/keys?done=revoked");
    expect((await page(server, "/dashboard/keys?done=revoked", who.cookie)).text).toContain("The key is revoked");
    expect((await org(second)).status).toBe(401);
  });

  test("a form without the CSRF token changes nothing; a refused mint shows why with its status", async () => {
    const who = await signIn(server, relay, uniqueEmail("keys-refused"));
    const before = eventsOf(server).length;
    const forged = await postForm(
      server,
      "/dashboard/keys",
      { name: "forged", scopes: ["jobs:read"] },
      { cookie: who.cookie },
    );
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF_TOKEN_INVALID");
    const noScopes = await postForm(
      server,
      "/dashboard/keys",
      { _csrf: who.csrfToken, name: "none" },
      { cookie: who.cookie },
    );
    expect(noScopes.status).toBe(400);
    expect(noScopes.text).toContain("Nothing was changed.");
    expect(eventsOf(server).length).toBe(before);
  });

  test("another organization's key reads as a missing one, and is not touched", async () => {
    const owner = await signIn(server, relay, uniqueEmail("keys-owner"));
    const other = await signIn(server, relay, uniqueEmail("keys-other"));
    const minted = await mint(owner, "theirs", ["account:read"]);
    const keyId = /<tr id="(key_[^"]+)">/.exec(minted.text)![1]!;
    const missing = await postForm(
      server,
      `/dashboard/keys/key_doesnotexist/revoke`,
      { _csrf: other.csrfToken },
      { cookie: other.cookie },
    );
    const foreign = await postForm(
      server,
      `/dashboard/keys/${keyId}/revoke`,
      { _csrf: other.csrfToken },
      { cookie: other.cookie },
    );
    expect(foreign.status).toBe(missing.status);
    expect(foreign.status).toBe(404);
    expect((await org(secretOn(minted.text)!)).status).toBe(200);
  });
});
