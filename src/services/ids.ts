import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Unbiased base62 from crypto randomness: bytes * 8 bits of entropy, rounded up to whole characters. */
export function randomBase62(chars: number): string {
  let out = "";
  while (out.length < chars) {
    for (const b of randomBytes(chars * 2)) {
      if (b < 248 && out.length < chars) out += BASE62[b % 62];
    }
  }
  return out;
}

/** API key: a recognisable prefix and 43 base62 characters (about 256 random bits). */
export const KEY_PREFIX = "assay_sk_";
export const newApiKey = () => `${KEY_PREFIX}${randomBase62(43)}`;
export const newKeyId = () => `key_${randomBase62(16)}`;
/** 22 base62 characters: about 131 random bits, so customer ids cannot be guessed or enumerated. */
export const newCustomerId = () => `cus_${randomBase62(22)}`;
export const newOrgCode = () => `ORG-${randomBase62(10).toUpperCase()}`;
export const newJobId = () => `job_${randomBase62(22)}`;
export const newRequestId = () => `req_${randomBase62(16)}`;
