import { Parser } from "htmlparser2";

/** What a crawl reads from a page: the links it may follow and the canonical URL it declares. */
export interface PageLinks {
  /** Absolute http(s) URLs of `<a href>` and `<area href>`, fragments dropped, in document order, each once. */
  links: string[];
  /** The `<link rel="canonical">` href, absolute, when the page has one. */
  canonical?: string;
}

/**
 * The links and canonical URL of an HTML page (htmlparser2, which reads HTML as browsers tolerate it), resolved
 * against the page's URL or its first `<base href>`. Links marked `rel="nofollow"`, and those that are not
 * http(s) (mailto:, tel:, javascript:), are not followed.
 */
export function pageLinks(html: string, pageUrl: string): PageLinks {
  let base = pageUrl;
  let baseSeen = false;
  const hrefs: string[] = [];
  let canonicalHref: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
        if (name === "base" && attrs.href !== undefined && !baseSeen) {
          baseSeen = true;
          base = absolute(attrs.href, pageUrl) ?? pageUrl;
        } else if ((name === "a" || name === "area") && attrs.href !== undefined && !rel.includes("nofollow"))
          hrefs.push(attrs.href);
        else if (name === "link" && rel.includes("canonical") && attrs.href && canonicalHref === undefined)
          canonicalHref = attrs.href;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const links = new Set<string>();
  for (const href of hrefs) {
    const url = absolute(href, base);
    if (url && /^https?:$/.test(new URL(url).protocol)) links.add(url);
  }
  const canonical = canonicalHref === undefined ? undefined : absolute(canonicalHref, base);
  return { links: [...links], ...(canonical ? { canonical } : {}) };
}

/** href resolved against base, fragment dropped; undefined when it does not resolve. */
function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}
