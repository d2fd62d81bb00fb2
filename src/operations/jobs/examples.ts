/** A small valid job body, the security suite's example for the job operations. */
export const STATIC_HTML_EXAMPLE = {
  type: "static_html",
  html: '<!doctype html><html lang="en"><head><title>Hi</title></head><body><h1>Hi</h1></body></html>',
  baseUrl: "https://example.com/",
  validations: ["page-title"],
};
