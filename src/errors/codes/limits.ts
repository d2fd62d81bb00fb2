import type { ErrorEntry } from "../error-entry";

// What an organization's credits or a caller's rate allow.

/** 402: the balance does not cover the price. */
export const paymentRequired = [
  {
    code: "INSUFFICIENT_CREDITS",
    status: 402,
    title: "Insufficient credits",
    guidance:
      "The balance is too low; nothing was charged (details.balance, details.required, details.shortfall). Top up; do not retry the same body expecting it to be free.",
  },
] as const satisfies readonly ErrorEntry[];

/** 429: each with details.retryAfterSeconds, also sent as the Retry-After header. */
export const tooManyRequests = [
  {
    code: "DISCOVERY_RATE_LIMITED",
    status: 429,
    title: "Site discoveries rate limited",
    guidance:
      "This organization asked for as many site discoveries (POST /api/sites/discover, discover_pages) as it may within the window (ASSAY_DISCOVERIES_PER_ORGANIZATION per ASSAY_DISCOVERY_WINDOW_SECONDS, 60 per hour by default): each makes the server fetch another site. Nothing was fetched; reuse the pages found, or try again after details.retryAfterSeconds (also the Retry-After header).",
    addedBySpecGap: true,
  },
  {
    code: "DEVICE_CODE_RATE_LIMITED",
    status: 429,
    title: "Device sign-ins rate limited",
    guidance:
      "This client address started as many device sign-ins (POST /api/device/code) as it may within one code lifetime (ASSAY_DEVICE_CODES_PER_ADDRESS per ASSAY_DEVICE_CODE_TTL_SECONDS, 20 per 10 minutes by default). A catalogued error, not an OAuth one: OAuth has no code for it. Nothing was issued; finish a sign-in already started, or try again after details.retryAfterSeconds.",
    addedBySpecGap: true,
  },
  {
    code: "PLAYGROUND_LIMIT_REACHED",
    status: 429,
    title: "Playground limit reached",
    guidance: "This anonymous session used all its free playground runs.",
  },
  {
    code: "PLAYGROUND_RATE_LIMITED",
    status: 429,
    title: "Playground rate limited",
    guidance: "Too many playground runs from one IP in the window.",
  },
  {
    code: "SESSION_START_RATE_LIMITED",
    status: 429,
    title: "Sign-ins rate limited",
    guidance:
      "This client address started as many sessions without a credential as it may within the window: sign-in links used, OpenID Connect sign-ins, invitation links opened (ASSAY_SIGNINS_PER_CLIENT per ASSAY_SIGNIN_WINDOW_SECONDS, 60 per hour by default). Nothing was started, and the link was not used: it still works until it expires. Try again after details.retryAfterSeconds (also the Retry-After header).",
    addedBySpecGap: true,
  },
  {
    code: "SIGNUP_RATE_LIMITED",
    status: 429,
    title: "Signups rate limited",
    guidance:
      "This client address opened as many organizations as it may within the window (ASSAY_SIGNUPS_PER_ADDRESS per ASSAY_SIGNUP_WINDOW_SECONDS, 5 per hour by default), whichever way: POST /api/signup, create_account, or the first sign-in (by link or OpenID Connect) of an email with no organization; while none are left, a sign-in link for such an email is refused too. Nothing was created or sent; sign in to an account you have, or try again after details.retryAfterSeconds (also the Retry-After header).",
    addedBySpecGap: true,
  },
  {
    code: "SIGNIN_RATE_LIMITED",
    status: 429,
    title: "Sign-in links rate limited",
    guidance:
      "As many sign-in links were asked for as may be within one link lifetime: for this email (ASSAY_SIGNIN_LINKS_PER_ADDRESS, 5 per 15 minutes by default), or from this client address whatever the emails (ASSAY_SIGNIN_LINKS_PER_CLIENT, 20 by default). Use a link already sent, or ask again after details.retryAfterSeconds (also the Retry-After header). Nothing was sent.",
    addedBySpecGap: true,
  },
] as const satisfies readonly ErrorEntry[];
