import { randomBytes } from "node:crypto";
import { KEY_PREFIX } from "../domain/key-prefix";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Unbiased random characters from an alphabet, by rejection sampling of crypto-random bytes. */
function randomFrom(alphabet: string, chars: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < chars) {
    for (const b of randomBytes(chars * 2)) {
      if (b < limit && out.length < chars) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

const randomBase62 = (chars: number) => randomFrom(BASE62, chars);

/** API key: a recognisable prefix and 43 base62 characters (about 256 random bits). */
export const newApiKey = () => `${KEY_PREFIX}${randomBase62(43)}`;
export const newKeyId = () => `key_${randomBase62(16)}`;
/** 22 base62 characters: about 131 random bits, so customer ids cannot be guessed or enumerated. */
export const newCustomerId = () => `cus_${randomBase62(22)}`;
export const newOrgCode = () => `ORG-${randomBase62(10).toUpperCase()}`;
export const newJobId = () => `job_${randomBase62(22)}`;
export const newRunId = () => `run_${randomBase62(22)}`;
/** A playground run: unguessable, since anyone holding the id may read the run. */
export const newPlaygroundRunId = () => `pgr_${randomBase62(22)}`;
/** An anonymous playground session (its cookie's value): it only counts runs, so it needs no secret beside it. */
export const newPlaygroundSessionId = () => randomBase62(32);
export const newRequestId = () => `req_${randomBase62(16)}`;
/** A test address's local part: lower case (mail systems may fold its case), 26 characters, about 134 random bits. */
export const newTestAddressToken = () => randomFrom(BASE36, 26);
export const newPersonId = () => `per_${randomBase62(22)}`;
/** A session's public handle (in events and lists); its cookie holds a separate secret. */
export const newSessionId = () => `ses_${randomBase62(22)}`;
/** A session cookie's secret and a sign-in link's token: 43 base62 characters, about 256 random bits. */
export const newSecretToken = () => randomBase62(43);
export const newSignInLinkId = () => `lnk_${randomBase62(22)}`;
export const newInvitationId = () => `inv_${randomBase62(22)}`;
export const newDeviceCodeId = () => `dev_${randomBase62(22)}`;
export const newWebhookEndpointId = () => `whe_${randomBase62(22)}`;
/** What an endpoint's signing secret is derived from with the server's secret (src/domain/webhooks.ts): about 131 random bits. */
export const newWebhookSecretNonce = () => randomBase62(22);
/** A user code: 8 consonants without vowels or look-alikes (no words, no 0/O or 1/I), about 34 random bits; shown as XXXX-XXXX. */
export const newUserCode = () => randomFrom("BCDFGHJKLMNPQRSTVWXZ", 8);
