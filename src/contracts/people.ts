import { Type } from "@sinclair/typebox";
import { enumOf } from "./job-request";
import { literals, Obj, Str } from "./schema-kit";

/** People in an organization: the role, the signed-in session, a membership and an invitation, as several session and member operations answer them. */

export const Role = literals(["admin", "member"] as const);

export const SessionView = Obj(
  {
    email: Str(),
    personId: Str(),
    customerId: Str("The organization the session acts for now."),
    role: Role,
    organizations: Type.Array(Obj({ customerId: Str(), orgCode: Str(), role: Role })),
    csrfToken: Str(
      "Send it as X-CSRF-Token (or a _csrf form field) with every state-changing request of this session.",
    ),
    expiresAt: Str(
      "When the session ends if unused; each use moves it forward, up to 30 days after sign-in by default.",
    ),
  },
  "Who is signed in.",
);

export const Member = Obj({ customerId: Str(), personId: Str(), email: Str(), role: Role }, "The membership.");

export const Invitation = Obj(
  {
    invitationId: Str(),
    customerId: Str(),
    email: Str(),
    role: Role,
    invitedAt: Str(),
    expiresAt: Str("The link works once, until then."),
  },
  "The invitation; its link went to the email (or, with no mail relay, to the server's log).",
);

/** The role a member is given (adding, inviting, changing a role). */
export const RoleField = enumOf(
  ["admin", "member"] as const,
  "admin: everything, including members and every key; member: jobs, feedback, and their own keys.",
);

export const PersonRef = Type.Object(
  { personId: Type.String({ minLength: 1, description: "The member's person id (per_…)." }) },
  { additionalProperties: false },
);
