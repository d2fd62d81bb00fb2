import type { VarSpec } from "./declaration";

/** The section "Sign-in, sessions and keys" (CONFIG_SECTIONS.signin), in the order docs/configuration.md lists it. */
export const SIGNIN_VARS = {
  ASSAY_MAIL_RELAY_URL: {
    section: "signin",
    kind: "url",
    doc: "Outbound SMTP relay for sign-in and invitation links (`smtp://host:port`); unset, links are written to the server's log.",
  },
  ASSAY_MAIL_FROM: {
    section: "signin",
    kind: "text",
    default: "Assay <no-reply@assay.localhost>",
    doc: "Sender of sign-in mail.",
  },
  ASSAY_SIGNIN_DOMAINS: {
    section: "signin",
    kind: "list",
    defaultText: "unset (any)",
    doc: "Comma-separated email domains allowed to sign in, and to open an account with `POST /api/signup` or `create_account` (an account no one can sign in to could never rotate or revoke its key); others get `403 UNAUTHORIZED_DOMAIN`, and nothing is created or sent.",
  },
  ASSAY_OIDC_ISSUER: {
    section: "signin",
    kind: "url",
    doc: "With `ASSAY_OIDC_CLIENT_ID` and `ASSAY_OIDC_CLIENT_SECRET` (all three set), sign-in through that OpenID Connect provider (authorization code with PKCE); register `PUBLIC_BASE_URL/api/session/oidc/callback` as the client's redirect URI.",
  },
  ASSAY_OIDC_CLIENT_ID: {
    section: "signin",
    kind: "text",
    doc: "The OpenID Connect client's id (see `ASSAY_OIDC_ISSUER`).",
  },
  ASSAY_OIDC_CLIENT_SECRET: {
    section: "signin",
    kind: "secret",
    doc: "The OpenID Connect client's secret (see `ASSAY_OIDC_ISSUER`).",
  },
  ASSAY_SIGNIN_LINK_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 900,
    doc: "Lifetime of a sign-in link (15 minutes).",
  },
  ASSAY_INVITATION_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 604800,
    doc: "Lifetime of an invitation link (7 days).",
  },
  ASSAY_SESSION_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 604800,
    doc: "A session ends after this long unused (7 days; renewed on use, at most once an hour).",
  },
  ASSAY_SESSION_MAX_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 2592000,
    doc: "A session ends this long after sign-in however much it is used (30 days).",
  },
  ASSAY_DEVICE_CODE_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 600,
    doc: "Lifetime of a device sign-in's codes (`expires_in`, 10 minutes).",
  },
  ASSAY_KEY_ROTATION_OVERLAP_SECONDS: {
    section: "signin",
    kind: "integer",
    default: 86400,
    doc: "How long a rotated key's previous secret keeps working (0: not at all).",
  },
} as const satisfies Record<string, VarSpec & { section: "signin" }>;
