/** Request bodies above this are refused before parsing (REQUEST_TOO_LARGE). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
