import { expect, test } from "bun:test";
import { decideRotateKey, streams } from "../../src/domain/accounts";
import { decideSignIn, requireKeyAuthority, requireScopesOfRole, type SignIn } from "../../src/domain/people";
import { refusal } from "../support/refusal";

/** The people deciders: which events a sign-in, a member and a key rotation record, and the refusals that record nothing. */

const NOW = "2026-01-01T00:00:00.000Z";
const LATER = "2026-01-01T00:15:00.000Z";
const HASH = "a".repeat(64);

const signIn = (over: Partial<SignIn> = {}): SignIn => ({
  now: NOW,
  link: { linkId: "lnk_1", email: "ann@example.com", expiresAt: LATER, usedAt: null },
  domains: [],
  emailHash: HASH,
  person: null,
  newPersonId: "per_new",
  claimedBy: null,
  newAccount: { customerId: "cus_new", orgCode: "ORG-NEW", signupCredits: 1000, monthlyGrant: 1000, period: "2026-11" },
  session: { sessionId: "ses_1", secretHash: "b".repeat(64), expiresAt: LATER, endsBy: LATER },
  ...over,
});

const types = (writes: ReturnType<typeof decideSignIn>) =>
  writes.flatMap((w) => w.events.map((e) => `${w.streamId}:${e.type}`));

test("a first sign-in with an email that has no organization registers the person and opens one with them as admin", () => {
  const writes = decideSignIn(signIn());
  expect(types(writes)).toEqual([
    "signin-lnk_1:SignInLinkUsed",
    `person-${HASH}:PersonRegistered`,
    `email-${HASH}:EmailClaimed`,
    "account-cus_new:AccountOpened",
    "account-cus_new:MemberAdded",
    "credits-cus_new:CreditsGranted",
    "session-ses_1:SessionStarted",
  ]);
  expect(writes.find((w) => w.streamId === streams.session("ses_1"))!.events[0]!.data).toMatchObject({
    personId: "per_new",
    customerId: "cus_new",
  });
});

test("a sign-in with a signup email claims that organization once; a known member just gets a session", () => {
  expect(types(decideSignIn(signIn({ claimedBy: "cus_a" })))).toEqual([
    "signin-lnk_1:SignInLinkUsed",
    `person-${HASH}:PersonRegistered`,
    "account-cus_a:MemberAdded",
    "session-ses_1:SessionStarted",
  ]);
  const member = { personId: "per_a", memberships: [{ customerId: "cus_b" }, { customerId: "cus_a" }] };
  expect(types(decideSignIn(signIn({ claimedBy: "cus_a", person: member })))).toEqual([
    "signin-lnk_1:SignInLinkUsed",
    "session-ses_1:SessionStarted",
  ]);
  // No claim: the session starts in the person's first organization.
  const writes = decideSignIn(signIn({ person: member }));
  expect(writes.at(-1)!.events[0]!.data).toMatchObject({ personId: "per_a", customerId: "cus_b" });
});

test.each([
  ["unknown", { link: null }],
  ["used", { link: { linkId: "lnk_1", email: "ann@example.com", expiresAt: LATER, usedAt: NOW } }],
  ["expired", { now: LATER }],
] as const)("a %s link is SIGNIN_LINK_INVALID", (reason, over) => {
  const e = refusal(() => decideSignIn(signIn(over)));
  expect([e.code, e.status, e.details]).toEqual(["SIGNIN_LINK_INVALID", 400, { reason }]);
});

test("a link for a domain no longer invited is UNAUTHORIZED_DOMAIN", () => {
  expect(refusal(() => decideSignIn(signIn({ domains: ["other.example"] }))).code).toBe("UNAUTHORIZED_DOMAIN");
});

test("a member may act on the keys they minted only; an admin on any; no role mints beyond its scopes", () => {
  expect(() =>
    requireKeyAuthority({ role: "member", personId: "per_m" }, { keyId: "key_1", personId: "per_m" }),
  ).not.toThrow();
  expect(() =>
    requireKeyAuthority({ role: "admin", personId: "per_a" }, { keyId: "key_1", personId: null }),
  ).not.toThrow();
  expect(
    refusal(() => requireKeyAuthority({ role: "member", personId: "per_m" }, { keyId: "key_1", personId: null })).code,
  ).toBe("ADMIN_REQUIRED");
  expect(() =>
    requireScopesOfRole("member", ["jobs:read", "jobs:write", "feedback:write", "account:read"]),
  ).not.toThrow();
});

test("rotating decides one KeyRotated on the organization's stream; a key that is not active is STORAGE_OBJECT_NOT_FOUND", () => {
  const rotation = { keyId: "key_1", displayPrefix: "assay_sk_abcd", secretHash: HASH, previousValidUntil: LATER };
  expect(decideRotateKey("cus_a", rotation, true)).toEqual([
    {
      streamId: streams.account("cus_a"),
      expectedVersion: "any",
      events: [{ type: "KeyRotated", data: { customerId: "cus_a", ...rotation } }],
    },
  ]);
  expect(refusal(() => decideRotateKey("cus_a", rotation, false)).code).toBe("STORAGE_OBJECT_NOT_FOUND");
});
