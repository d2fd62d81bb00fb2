import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  eventCount,
  eventsOf,
  expectError,
  startServer,
  uniqueEmail,
  type ApiResponse,
  type TestServer,
} from "../support/harness";
import {
  inSession,
  openLink,
  signIn,
  signInThrough,
  startMailRelay,
  type MailRelay,
  type SignedIn,
} from "../support/mail-relay";

/**
 * Organizations and their members through the real interface: invitations by an emailed link (a real SMTP
 * server stands in for the relay), roles, removal, leaving, the last admin, and the keys a session lists.
 * Two servers: one as configured by default, one restricted to an invited domain with one-second invitations.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;
const INVITED = "invited.example";

let relay: MailRelay;
let server: TestServer;
let strict: TestServer;

beforeAll(async () => {
  relay = await startMailRelay();
  server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url });
  strict = await startServer({
    ASSAY_MAIL_RELAY_URL: relay.url,
    ASSAY_SIGNIN_DOMAINS: INVITED,
    ASSAY_INVITATION_TTL_SECONDS: "1",
  });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  await strict?.stop();
  await relay?.stop();
}, HOOK_TIMEOUT);

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const sessionOf = (s: TestServer, who: SignedIn) => s.api("GET", "/api/session", { headers: inSession(who, null) });
const members = (s: TestServer, who: SignedIn) => s.api("GET", "/api/members", { headers: inSession(who, null) });

async function invite(
  s: TestServer,
  admin: SignedIn,
  email: string,
  role: "admin" | "member" = "member",
): Promise<string> {
  const res = await s.api("POST", "/api/invitations", { headers: inSession(admin), body: { email, role } });
  if (res.status !== 201) throw new Error(`invitation refused: ${res.status} ${JSON.stringify(res.body)}`);
  const link = await relay.invitationFor(email);
  return s === server ? link : link.replace(/^http:\/\/[^/]+/, s.baseUrl);
}

/** An organization with an admin and a member who joined by invitation. */
async function team(tag: string): Promise<{ admin: SignedIn; member: SignedIn; memberEmail: string }> {
  const admin = await signIn(server, relay, uniqueEmail(`${tag}-admin`));
  const memberEmail = uniqueEmail(`${tag}-member`);
  const member = await signInThrough(server, await invite(server, admin, memberEmail));
  return { admin, member, memberEmail };
}

const mintKey = async (who: SignedIn, name: string) => {
  const res = await server.api("POST", "/api/keys", {
    headers: inSession(who),
    body: { name, scopes: ["account:read"] },
  });
  if (res.status !== 201) throw new Error(`mint refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { apiKey: string; keyId: string };
};
const keyWorks = async (apiKey: string) => (await server.api("GET", "/api/org", { key: apiKey })).status;

describe("invitations", () => {
  test("an admin invites by email: the link arrives through the relay, the invitation is pending, and the log keeps only its hash", async () => {
    const admin = await signIn(server, relay, uniqueEmail("inviter"));
    const email = uniqueEmail("invitee");
    const res = await server.api("POST", "/api/invitations", {
      headers: inSession(admin),
      body: { email, role: "admin" },
    });
    expect(res.status).toBe(201);
    const { invitationId } = res.body;
    expect(invitationId).toMatch(/^inv_/);
    expect(res.body).toMatchObject({ customerId: admin.customerId, email, role: "admin" });
    const link = await relay.invitationFor(email);
    expect(relay.messages.findLast((m) => m.to === email)?.subject).toBe("You are invited to an Assay organization");
    const list = await members(server, admin);
    expect(list.status).toBe(200);
    expect(list.body.invitations).toEqual([res.body]);
    const event = eventsOf(server).find((e) => e.type === "MemberInvited" && e.data.invitationId === invitationId)!;
    expect(event.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId }, channel: "api" });
    expect(JSON.stringify(eventsOf(server))).not.toContain(tokenOf(link));
  });

  test("opening the link signed out signs in with the invited email and joins with the invited role; it works once", async () => {
    const admin = await signIn(server, relay, uniqueEmail("host"));
    const email = uniqueEmail("guest");
    const link = await invite(server, admin, email);
    const before = eventCount(server);
    const guest = await signInThrough(server, link);
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["InvitationAccepted", "PersonRegistered", "MemberAdded", "SessionStarted"]);
    const session = await sessionOf(server, guest);
    expect(session.body).toMatchObject({ email, customerId: admin.customerId, role: "member" });
    expect(session.body.organizations).toEqual([
      { customerId: admin.customerId, orgCode: expect.any(String), role: "member" },
    ]);
    const list = (await members(server, admin)).body;
    expect(list.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [expect.any(String), "admin"],
      [email, "member"],
    ]);
    expect(list.invitations).toEqual([]);
    // A member reads the list too.
    expect((await members(server, guest)).body.members).toHaveLength(2);

    const after = eventCount(server);
    const reused = await openLink(link);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ code: "INVITATION_INVALID", details: { reason: "used" } });
    const unknown = await server.api("GET", "/api/invitations/callback?token=nope");
    expectError(unknown, 400, "INVITATION_INVALID");
    expect(unknown.body.details).toEqual({ reason: "unknown" });
    expect(eventCount(server)).toBe(after);
  });

  test("a signed-in person accepts an invitation for their own email; one for another email is INVITATION_EMAIL_MISMATCH and changes nothing", async () => {
    const admin = await signIn(server, relay, uniqueEmail("org-b"));
    const email = uniqueEmail("two-orgs");
    const person = await signIn(server, relay, email);
    const other = await signIn(server, relay, uniqueEmail("not-invited"));
    const link = await invite(server, admin, email, "admin");

    const before = eventCount(server);
    expectError(
      await server.api("POST", "/api/invitations/accept", {
        headers: inSession(other),
        body: { token: tokenOf(link) },
      }),
      403,
      "INVITATION_EMAIL_MISMATCH",
    );
    expectError(
      await server.api("POST", "/api/invitations/accept", {
        headers: inSession(person, null),
        body: { token: tokenOf(link) },
      }),
      403,
      "CSRF_TOKEN_INVALID",
    );
    expect(eventCount(server)).toBe(before);

    const accepted = await server.api("POST", "/api/invitations/accept", {
      headers: inSession(person),
      body: { token: tokenOf(link) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ customerId: admin.customerId, personId: person.personId, email, role: "admin" });
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["InvitationAccepted", "MemberAdded"]);
    const session = (await sessionOf(server, person)).body;
    expect(session.customerId).toBe(person.customerId);
    expect(session.organizations.map((o: { customerId: string; role: string }) => [o.customerId, o.role])).toEqual([
      [person.customerId, "admin"],
      [admin.customerId, "admin"],
    ]);
    expectError(
      await server.api("POST", "/api/invitations/accept", {
        headers: inSession(person),
        body: { token: tokenOf(link) },
      }),
      400,
      "INVITATION_INVALID",
    );
  });

  test("an expired invitation is INVITATION_INVALID and adds no one", async () => {
    const admin = await signIn(strict, relay, `host-${Date.now()}@${INVITED}`);
    const email = `late-${Date.now()}@${INVITED}`;
    const link = await invite(strict, admin, email);
    await Bun.sleep(1100);
    const before = eventCount(strict);
    const res = await openLink(link);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVITATION_INVALID", details: { reason: "expired" } });
    expect(eventCount(strict)).toBe(before);
    expect((await members(strict, admin)).body).toMatchObject({
      members: [{ personId: admin.personId }],
      invitations: [],
    });
  });

  test("inviting outside ASSAY_SIGNIN_DOMAINS is UNAUTHORIZED_DOMAIN, and a member inviting is ADMIN_REQUIRED: no event, no mail", async () => {
    const admin = await signIn(strict, relay, `boss-${Date.now()}@${INVITED}`);
    const member = await signInThrough(strict, await invite(strict, admin, `staff-${Date.now()}@${INVITED}`));
    const before = { events: eventCount(strict), mail: relay.messages.length };
    expectError(
      await strict.api("POST", "/api/invitations", {
        headers: inSession(admin),
        body: { email: uniqueEmail("outsider"), role: "member" },
      }),
      403,
      "UNAUTHORIZED_DOMAIN",
    );
    expectError(
      await strict.api("POST", "/api/invitations", {
        headers: inSession(member),
        body: { email: `friend-${Date.now()}@${INVITED}`, role: "member" },
      }),
      403,
      "ADMIN_REQUIRED",
    );
    expect({ events: eventCount(strict), mail: relay.messages.length }).toEqual(before);
  });
});

describe("roles", () => {
  test("an admin promotes and demotes a member; the same role changes nothing; the last admin cannot be demoted", async () => {
    const { admin, member } = await team("roles");
    const role = (who: SignedIn, personId: string, r: string) =>
      server.api("POST", `/api/members/${personId}/role`, { headers: inSession(who), body: { role: r } });

    const before = eventCount(server);
    const promoted = await role(admin, member.personId, "admin");
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ customerId: admin.customerId, personId: member.personId, role: "admin" });
    expect((await sessionOf(server, member)).body.role).toBe("admin");
    const event = eventsOf(server)
      .slice(before)
      .find((e) => e.type === "MemberRoleChanged")!;
    expect(event.data).toEqual({ customerId: admin.customerId, personId: member.personId, role: "admin" });
    expect(event.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId } });
    const same = eventCount(server);
    expect((await role(admin, member.personId, "admin")).status).toBe(200);
    expect(eventCount(server)).toBe(same);

    // Two admins: one may step down; then the other is the last and may not.
    expect((await role(member, admin.personId, "member")).body.role).toBe("member");
    const last = eventCount(server);
    const refused = await role(member, member.personId, "member");
    expectError(refused, 409, "LAST_ADMIN");
    expect(refused.body.details).toEqual({ personId: member.personId });
    expect(eventCount(server)).toBe(last);
    // Now a member, the former admin may change no role.
    expectError(await role(admin, member.personId, "member"), 403, "ADMIN_REQUIRED");
    expect(eventCount(server)).toBe(last);
  });

  test("another organization's person is the same MEMBER_NOT_FOUND as a missing one, for role change and removal", async () => {
    const { admin } = await team("fence");
    const stranger = await signIn(server, relay, uniqueEmail("stranger"));
    const before = eventCount(server);
    for (const personId of [stranger.personId, "per_0000000000000000000000"]) {
      const changed = await server.api("POST", `/api/members/${personId}/role`, {
        headers: inSession(admin),
        body: { role: "member" },
      });
      expectError(changed, 404, "MEMBER_NOT_FOUND");
      expect(changed.body.details).toEqual({ personId });
      const removed = await server.api("DELETE", `/api/members/${personId}`, { headers: inSession(admin) });
      expectError(removed, 404, "MEMBER_NOT_FOUND");
      expect(removed.body.details).toEqual({ personId });
    }
    expect(eventCount(server)).toBe(before);
    expect((await sessionOf(server, stranger)).body.role).toBe("admin");
  });
});

describe("removing and leaving", () => {
  test("an admin removes a member: the keys they minted are revoked with them, their session no longer acts for the organization", async () => {
    const { admin, member } = await team("remove");
    const theirs = await mintKey(member, "member's");
    const ours = await mintKey(admin, "admin's");
    expectError(
      await server.api("DELETE", `/api/members/${admin.personId}`, { headers: inSession(member) }),
      403,
      "ADMIN_REQUIRED",
    );

    const before = eventCount(server);
    const res = await server.api("DELETE", `/api/members/${member.personId}`, { headers: inSession(admin) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      customerId: admin.customerId,
      personId: member.personId,
      revokedKeyIds: [theirs.keyId],
    });
    const events = eventsOf(server).slice(before);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["MemberRemoved", { customerId: admin.customerId, personId: member.personId, reason: "removed" }],
      ["KeyRevoked", { keyId: theirs.keyId, customerId: admin.customerId }],
    ]);
    for (const e of events) expect(e.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId } });

    expect(await keyWorks(theirs.apiKey)).toBe(401);
    expect(await keyWorks(ours.apiKey)).toBe(200);
    expectError(await sessionOf(server, member), 401, "AUTH_REQUIRED");
    expect((await members(server, admin)).body.members.map((m: { personId: string }) => m.personId)).toEqual([
      admin.personId,
    ]);
    // Removing them again, or the last admin (oneself), changes nothing.
    const after = eventCount(server);
    expectError(
      await server.api("DELETE", `/api/members/${member.personId}`, { headers: inSession(admin) }),
      404,
      "MEMBER_NOT_FOUND",
    );
    expectError(
      await server.api("DELETE", `/api/members/${admin.personId}`, { headers: inSession(admin) }),
      409,
      "LAST_ADMIN",
    );
    expect(eventCount(server)).toBe(after);
  });

  test("the last admin cannot leave; a member leaves, their keys are revoked and the session moves to their next organization", async () => {
    const { admin, member, memberEmail } = await team("leave");
    expectError(await server.api("POST", "/api/members/leave", { headers: inSession(admin) }), 409, "LAST_ADMIN");
    // A second session of the member's: signing in lands in their one organization.
    const second = await signIn(server, relay, memberEmail);
    expect(second.customerId).toBe(admin.customerId);
    const key = await mintKey(member, "leaving");

    const res = await server.api("POST", "/api/members/leave", { headers: inSession(member) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customerId: admin.customerId, revokedKeyIds: [key.keyId], session: null });
    expect(
      eventsOf(server)
        .slice(-3)
        .map((e) => e.type),
    ).toEqual(["MemberRemoved", "KeyRevoked", "SessionEnded"]);
    expect(await keyWorks(key.apiKey)).toBe(401);
    expectError(await sessionOf(server, member), 401, "AUTH_REQUIRED");
    expectError(await sessionOf(server, second), 401, "AUTH_REQUIRED");
  });

  test("a person in two organizations who leaves one goes on in the other", async () => {
    const admin = await signIn(server, relay, uniqueEmail("first-org"));
    const email = uniqueEmail("roamer");
    const person = await signIn(server, relay, email);
    const link = await invite(server, admin, email);
    expect(
      (
        await server.api("POST", "/api/invitations/accept", {
          headers: inSession(person),
          body: { token: tokenOf(link) },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.api("POST", "/api/session/organization", {
          headers: inSession(person),
          body: { customerId: admin.customerId },
        })
      ).status,
    ).toBe(200);

    const res = await server.api("POST", "/api/members/leave", { headers: inSession(person) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customerId: admin.customerId,
      revokedKeyIds: [],
      session: { customerId: person.customerId, role: "admin" },
    });
    expect(
      eventsOf(server)
        .slice(-2)
        .map((e) => e.type),
    ).toEqual(["MemberRemoved", "SessionOrganizationSwitched"]);
    const session = (await sessionOf(server, person)).body;
    expect(session.customerId).toBe(person.customerId);
    expect(session.organizations.map((o: { customerId: string }) => o.customerId)).toEqual([person.customerId]);
  });
});

describe("keys listed in a session", () => {
  test("GET /api/keys with a session: an admin sees the organization's keys, a member only their own; a key still lists them all", async () => {
    const { admin, member } = await team("list");
    const adminKey = await mintKey(admin, "admin's");
    const memberKey = await mintKey(member, "member's");
    const idsOf = (res: ApiResponse) => res.body.keys.map((k: { keyId: string }) => k.keyId).sort();
    const both = [adminKey.keyId, memberKey.keyId].sort();

    const asAdmin = await server.api("GET", "/api/keys", { headers: inSession(admin, null) });
    expect(asAdmin.status).toBe(200);
    expect(idsOf(asAdmin)).toEqual(both);
    expect(idsOf(await server.api("GET", "/api/keys", { headers: inSession(member, null) }))).toEqual([
      memberKey.keyId,
    ]);
    expect(idsOf(await server.api("GET", "/api/keys", { key: memberKey.apiKey }))).toEqual(both);
    expect(JSON.stringify(asAdmin.body)).not.toContain(adminKey.apiKey);
  });

  test("with a session, another organization's customerId is refused as with a key; with neither, AUTH_REQUIRED", async () => {
    const admin = await signIn(server, relay, uniqueEmail("keys-fence"));
    const stranger = await server.signup(uniqueEmail("keys-stranger"));
    expectError(
      await server.api("GET", `/api/keys?customerId=${stranger.customerId}`, { headers: inSession(admin, null) }),
      403,
      "CUSTOMER_SCOPE_MISMATCH",
    );
    expect(
      (await server.api("GET", `/api/keys?customerId=${admin.customerId}`, { headers: inSession(admin, null) })).status,
    ).toBe(200);
    expectError(await server.api("GET", "/api/keys"), 401, "AUTH_REQUIRED");
    expectError(
      await server.api("GET", "/api/keys", { headers: { cookie: "assay_session=nope" } }),
      401,
      "AUTH_REQUIRED",
    );
  });
});
