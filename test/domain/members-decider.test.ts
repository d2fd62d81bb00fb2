import { expect, test } from "bun:test";
import {
  decideAcceptInvitation,
  decideAddMember,
  decideChangeRole,
  decideRemoveMember,
  type AcceptInvitation,
  type MemberChange,
} from "../../src/domain/members";
import { refusal } from "../support/refusal";

/** The members deciders: what an invitation, a role change and a member going record, and the refusals that record nothing. */

const NOW = "2026-01-01T00:00:00.000Z";
const LATER = "2026-01-08T00:00:00.000Z";
const HASH = "a".repeat(64);

const types = (writes: { events: { type: string }[] }[]) => writes.flatMap((w) => w.events.map((e) => e.type));

test("only an admin adds members; adding one again records nothing", () => {
  const cmd = {
    customerId: "cus_a",
    email: "bo@example.com",
    emailHash: HASH,
    role: "member" as const,
    actorRole: "admin" as const,
    domains: [],
    person: null,
    newPersonId: "per_bo",
  };
  expect(decideAddMember(cmd).writes.flatMap((w) => w.events.map((e) => e.type))).toEqual([
    "PersonRegistered",
    "MemberAdded",
  ]);
  expect(
    decideAddMember({ ...cmd, person: { personId: "per_bo", memberships: [{ customerId: "cus_a" }] } }).writes,
  ).toEqual([]);
  expect(refusal(() => decideAddMember({ ...cmd, actorRole: "member" })).code).toBe("ADMIN_REQUIRED");
});

const accept = (over: Partial<AcceptInvitation> = {}): AcceptInvitation => ({
  now: NOW,
  invitation: {
    invitationId: "inv_1",
    customerId: "cus_a",
    email: "bo@example.com",
    role: "member",
    expiresAt: LATER,
    acceptedAt: null,
  },
  domains: [],
  emailHash: HASH,
  person: null,
  newPersonId: "per_bo",
  signedInEmail: null,
  session: { sessionId: "ses_1", secretHash: HASH, expiresAt: LATER, endsBy: LATER },
  ...over,
});

test("an invitation opened signed out registers the person, adds them and starts a session in the inviting organization", () => {
  expect(types(decideAcceptInvitation(accept()).writes)).toEqual([
    "InvitationAccepted",
    "PersonRegistered",
    "MemberAdded",
    "SessionStarted",
  ]);
  const member = { personId: "per_bo", memberships: [{ customerId: "cus_a" }] };
  expect(
    types(decideAcceptInvitation(accept({ person: member, session: null, signedInEmail: "bo@example.com" })).writes),
  ).toEqual(["InvitationAccepted"]);
});

test.each([
  ["unknown", { invitation: null }],
  ["used", { invitation: { ...accept().invitation!, acceptedAt: NOW } }],
  ["expired", { now: LATER }],
] as const)("a %s invitation is INVITATION_INVALID", (reason, over) => {
  const e = refusal(() => decideAcceptInvitation(accept(over)));
  expect([e.code, e.status, e.details]).toEqual(["INVITATION_INVALID", 400, { reason }]);
});

test("another signed-in email is INVITATION_EMAIL_MISMATCH; a domain no longer invited is UNAUTHORIZED_DOMAIN", () => {
  expect(refusal(() => decideAcceptInvitation(accept({ signedInEmail: "cy@example.com", session: null }))).code).toBe(
    "INVITATION_EMAIL_MISMATCH",
  );
  expect(refusal(() => decideAcceptInvitation(accept({ domains: ["other.example"] }))).code).toBe(
    "UNAUTHORIZED_DOMAIN",
  );
});

const change = (over: Partial<MemberChange> = {}): MemberChange => ({
  customerId: "cus_a",
  accountVersion: 7,
  targetRole: "admin",
  personId: "per_bo",
  admins: 2,
  ...over,
});

test("roles: only an admin changes them, a missing member is MEMBER_NOT_FOUND, the last admin stays admin, the same role records nothing", () => {
  const writes = decideChangeRole(change(), "member", "admin");
  expect(writes).toEqual([
    {
      streamId: "account-cus_a",
      expectedVersion: 7,
      events: [{ type: "MemberRoleChanged", data: { customerId: "cus_a", personId: "per_bo", role: "member" } }],
    },
  ]);
  expect(decideChangeRole(change(), "admin", "admin")).toEqual([]);
  expect(refusal(() => decideChangeRole(change(), "member", "member")).code).toBe("ADMIN_REQUIRED");
  expect(refusal(() => decideChangeRole(change({ targetRole: null }), "member", "admin")).code).toBe(
    "MEMBER_NOT_FOUND",
  );
  const last = refusal(() => decideChangeRole(change({ admins: 1 }), "member", "admin"));
  expect([last.code, last.status]).toEqual(["LAST_ADMIN", 409]);
});

test("a member going revokes the keys they minted in the same write; the last admin can neither leave nor be removed", () => {
  const writes = decideRemoveMember(change({ targetRole: "member", admins: 1 }), { reason: "left" }, [
    "key_1",
    "key_2",
  ]);
  expect(writes).toEqual([
    {
      streamId: "account-cus_a",
      expectedVersion: 7,
      events: [
        { type: "MemberRemoved", data: { customerId: "cus_a", personId: "per_bo", reason: "left" } },
        { type: "KeyRevoked", data: { keyId: "key_1", customerId: "cus_a" } },
        { type: "KeyRevoked", data: { keyId: "key_2", customerId: "cus_a" } },
      ],
    },
  ]);
  expect(refusal(() => decideRemoveMember(change({ admins: 1 }), { reason: "left" }, [])).code).toBe("LAST_ADMIN");
  expect(
    refusal(() => decideRemoveMember(change({ admins: 1 }), { reason: "removed", actorRole: "admin" }, [])).code,
  ).toBe("LAST_ADMIN");
  expect(refusal(() => decideRemoveMember(change(), { reason: "removed", actorRole: "member" }, [])).code).toBe(
    "ADMIN_REQUIRED",
  );
  expect(
    refusal(() => decideRemoveMember(change({ targetRole: null }), { reason: "removed", actorRole: "admin" }, [])).code,
  ).toBe("MEMBER_NOT_FOUND");
});
