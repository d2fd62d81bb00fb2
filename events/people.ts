import { Type } from "@sinclair/typebox";
import { eventType, Id, Instant, Sha256Hex as Hash, type EventData } from "./shared";

export const Role = Type.Union([Type.Literal("admin"), Type.Literal("member")]);

/** Stream `person-<emailHash>`: one person per email, an invariant of the log as for accounts. */
export const PersonRegistered = eventType(
  "PersonRegistered",
  Type.Object({ personId: Id, email: Type.String(), emailHash: Hash }, { additionalProperties: false }),
);
export type PersonRegisteredData = EventData<typeof PersonRegistered>;

/** Stream `account-<customerId>`: a person joins an organization with a role. */
export const MemberAdded = eventType(
  "MemberAdded",
  Type.Object({ customerId: Id, personId: Id, role: Role }, { additionalProperties: false }),
);

/** Stream `signin-<linkId>`: a single-use sign-in link; the token itself is never stored, only its SHA-256. */
export const SignInLinkIssued = eventType(
  "SignInLinkIssued",
  Type.Object(
    { linkId: Id, email: Type.String(), tokenHash: Hash, expiresAt: Instant },
    { additionalProperties: false },
  ),
);
export const SignInLinkUsed = eventType("SignInLinkUsed", Type.Object({ linkId: Id }, { additionalProperties: false }));

/**
 * Stream `session-<sessionId>`. sessionId is a public handle; the cookie's secret is stored only as `secretHash`.
 * `expiresAt` is the idle end (moved by SessionRenewed), `endsBy` the absolute one (never moved).
 */
export const SessionStarted = eventType(
  "SessionStarted",
  Type.Object(
    { sessionId: Id, secretHash: Hash, personId: Id, customerId: Id, expiresAt: Instant, endsBy: Instant },
    { additionalProperties: false },
  ),
);
export const SessionRenewed = eventType(
  "SessionRenewed",
  Type.Object({ sessionId: Id, expiresAt: Instant }, { additionalProperties: false }),
);
export const SessionOrganizationSwitched = eventType(
  "SessionOrganizationSwitched",
  Type.Object({ sessionId: Id, customerId: Id }, { additionalProperties: false }),
);
export const SessionEnded = eventType(
  "SessionEnded",
  Type.Object({ sessionId: Id, reason: Type.Literal("signout") }, { additionalProperties: false }),
);

export const peopleEvents = [
  PersonRegistered,
  MemberAdded,
  SignInLinkIssued,
  SignInLinkUsed,
  SessionStarted,
  SessionRenewed,
  SessionOrganizationSwitched,
  SessionEnded,
] as const;
