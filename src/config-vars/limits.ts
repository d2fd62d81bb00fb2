import type { VarSpec } from "./declaration";

/** The section "Limits on callers without a credential" (CONFIG_SECTIONS.limits), in the order docs/configuration.md lists it. */
export const LIMITS_VARS = {
  ASSAY_SIGNUPS_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 5,
    doc: "Organizations one client address may open per window, whichever way: `POST /api/signup`, `create_account`, or the first sign-in (by link or OpenID Connect) of an email with no organization, each of which opens one with the signup credits. More get `429 SIGNUP_RATE_LIMITED` with `Retry-After`, and nothing is created. A sign-in link is counted when it is used, against the address that uses it (the one the organization is opened from), and asking for a link that would open one is refused while the asking address has none left, so links cannot be mailed to any number of new addresses. Refused signups (an existing account, an invalid email) do not count. Per process on SQLite; with several nodes on PostgreSQL the count is shared (in the database), so every node counts the same attempts.",
  },
  ASSAY_SIGNUP_WINDOW_SECONDS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_SIGNUPS_PER_ADDRESS`.",
  },
  ASSAY_SIGNIN_LINKS_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 5,
    doc: "Sign-in links one email address may be sent per link lifetime; more get `429 SIGNIN_RATE_LIMITED` with `Retry-After` (counted once across nodes on PostgreSQL).",
  },
  ASSAY_SIGNIN_LINKS_PER_CLIENT: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 20,
    doc: "Sign-in links one client address may ask for per link lifetime, whatever the recipients (`POST /api/session/email`, the `/signin` form); more get `429 SIGNIN_RATE_LIMITED` with `Retry-After`, and nothing is written or sent.",
  },
  ASSAY_SIGNINS_PER_CLIENT: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 60,
    doc: "Sessions one client address may start without a credential per window: sign-in links used, OpenID Connect sign-ins, invitation links opened; more get `429 SESSION_START_RATE_LIMITED` with `Retry-After`, nothing is written, and the link stays unused (it works until it expires).",
  },
  ASSAY_SIGNIN_WINDOW_SECONDS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_SIGNINS_PER_CLIENT`.",
  },
  ASSAY_DEVICE_CODES_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 20,
    doc: "Device sign-ins (`POST /api/device/code`) one client address may start per code lifetime (a login asks for one); more get `429 DEVICE_CODE_RATE_LIMITED` with `Retry-After`, a catalogued error rather than an OAuth one (OAuth has no code for a rate limit), and nothing is written.",
  },
} as const satisfies Record<string, VarSpec & { section: "limits" }>;
