/**
 * A page's identity across runs (its `pageKey`): the name a config gives it; else, for a url page, its normalized
 * URL; for a static_html page, its normalized baseUrl; for an email, its subject. The one rule, shared by the
 * client that builds a run and the server that compares it with its baseline, so the two never disagree.
 */

/**
 * An http(s) URL as one page: scheme and host lower-cased and the default port dropped (the URL parser does
 * both), the fragment dropped, the query's parameters sorted by name (their order among equal names kept), and a
 * trailing slash of a non-root path kept as given (`/a/` and `/a` may be different pages). Throws a TypeError on
 * what is not an absolute URL.
 */
export function normalizePageUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = "";
  if (url.search) {
    const params = [...url.searchParams];
    params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    url.search = new URLSearchParams(params).toString();
  }
  return url.href;
}

/** What a page's key is read from: its name, or its subject. */
export interface PageIdentity {
  name?: string;
  type: string;
  url?: string;
  baseUrl?: string;
  subject?: string;
}

/** The page's key (see the module comment); a URL that does not parse is kept as given. */
export function pageKeyOf(page: PageIdentity): string {
  if (page.name) return page.name;
  const raw = page.type === "url" ? page.url : page.type === "static_html" ? page.baseUrl : page.subject;
  if (raw === undefined) return "";
  if (page.type === "email") return raw;
  try {
    return normalizePageUrl(raw);
  } catch {
    return raw;
  }
}
