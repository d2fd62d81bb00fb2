import type { ErrorEntry } from "../error-entry";

// Who is asking and what they may do.

/** 401: no valid credential. */
export const unauthorized = [
  {
    code: "AUTH_REQUIRED",
    status: 401,
    title: "Authentication required",
    guidance:
      "Send Authorization: Bearer <API_KEY>. The key is missing, malformed, unknown or revoked; key mint, rotate and revoke need a signed-in session (POST /api/session/email), not a key, and a session that ended or expired means signing in again.",
  },
] as const satisfies readonly ErrorEntry[];

/** 403: a credential that may not do this. */
export const forbidden = [
  {
    code: "ADMIN_REQUIRED",
    status: 403,
    title: "Admin required",
    guidance:
      "This action needs an admin user: adding, inviting and removing members and changing roles, or rotating and revoking a key another person minted (details.keyId).",
  },
  {
    code: "CSRF_TOKEN_INVALID",
    status: 403,
    title: "CSRF token missing or wrong",
    guidance:
      "A state-changing request made with the session cookie must carry the session's csrfToken (GET /api/session) in the X-CSRF-Token header, or a _csrf form field. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "CUSTOMER_SCOPE_MISMATCH",
    status: 403,
    title: "Customer scope mismatch",
    guidance:
      "customerId names another organization than the credential's. Omit customerId to act as your own organization.",
  },
  {
    code: "INSUFFICIENT_SCOPE",
    status: 403,
    title: "Insufficient scope",
    guidance:
      "The key lacks a scope this route needs (details.requiredScope, details.keyScopes). Scopes are fixed at creation: mint a key with the scope.",
  },
  {
    code: "INVITATION_EMAIL_MISMATCH",
    status: 403,
    title: "Invitation for another email",
    guidance:
      "The invitation names another email than the signed-in person's. Sign in with the invited email, or open the invitation link signed out: it signs in as the invited email. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "PLAN_EXCLUDES_EMAIL_CHECKS",
    status: 403,
    title: "Plan excludes email checks",
    guidance: "The plan has no email checks (details.feature).",
  },
  {
    code: "PLAN_EXCLUDES_REQUESTED_CLIENTS",
    status: 403,
    title: "Plan excludes requested clients",
    guidance:
      "An explicitly named (formFactor, clientId) pair is outside the plan; it is never silently narrowed (details.validationId, details.refusedClients, details.missingFeatures).",
  },
  {
    code: "PLAN_EXCLUDES_REQUESTED_ENGINES",
    status: 403,
    title: "Plan excludes requested engines",
    guidance:
      "A validation names a browser engine beyond Chromium (details.validationId, details.refusedEngines) and the plan has no extra-credit renders (details.missingFeatures: extra_credit_clients); an extra engine is gated and priced like an extra-credit mail client. Nothing was charged; remove the engine or change plans.",
    addedBySpecGap: true,
  },
  {
    code: "PLAN_EXCLUDES_WEBSITE_CHECKS",
    status: 403,
    title: "Plan excludes website checks",
    guidance: "The plan has no website checks (details.feature).",
  },
  {
    code: "SELF_REVOKE_ONLY",
    status: 403,
    title: "A key may revoke only itself",
    guidance:
      "With a Bearer key, DELETE /api/keys/{keyId} revokes that same key (a command-line logout). Revoke other keys from a signed-in session.",
    addedBySpecGap: true,
  },
  {
    code: "UNAUTHORIZED_DOMAIN",
    status: 403,
    title: "Unauthorized domain",
    guidance:
      "Sign-in, and signup (POST /api/signup, create_account), are restricted to the email domains ASSAY_SIGNIN_DOMAINS lists (details.domain is the one refused). Nothing was created or sent.",
  },
] as const satisfies readonly ErrorEntry[];
