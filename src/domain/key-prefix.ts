/** What every API key starts with, so that a key is recognisable in a file or a log (and by secret scanners). */
export const KEY_PREFIX = "assay_sk_";

/**
 * The part of a key that may be shown wherever keys are listed (the dashboard, GET /api/keys, `assay status`): the
 * prefix and 4 characters, far too few to guess the rest from.
 */
export const displayPrefixOf = (apiKey: string): string => apiKey.slice(0, KEY_PREFIX.length + 4);
