/** Request bodies above this are refused before parsing (REQUEST_TOO_LARGE). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * A run's body (POST /api/runs): up to ASSAY_RUN_MAX_PAGES pages, static_html ones carrying their HTML. Bodies are
 * read whole before any cap is checked, up to the server's own limit, which is this: a larger cap here costs no more
 * memory per request than any route already may.
 */
export const MAX_RUN_BODY_BYTES = 16 * 1024 * 1024;
