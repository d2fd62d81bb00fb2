import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const mixedContent: WebValidation = {
  meta: domCheck({
    id: "mixed-content",
    name: "No mixed content",
    category: "security",
    severity: "major",
    summary: "No subresource (image, script, frame, media, stylesheet, icon, CSS url()) is loaded over plain http.",
    judgment:
      "Fails when a subresource URL uses http: — written as http:// in src, srcset, poster, <link rel=stylesheet|preload|icon|modulepreload> href, or CSS url(); or resolving to http: on an https page. Plain <a href> links and XML namespace URIs do not count. Browsers block or warn on such requests on https pages.",
    references: [
      { title: "MDN: mixed content", url: "https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content" },
    ],
  }),
  evaluate(artifacts) {
    const dom = domAt(artifacts);
    const pageIsHttps = dom.url.startsWith("https:");
    const insecure = dom.subresources.filter(
      (r) => /^http:/i.test(r.raw) || (pageIsHttps && r.resolved.startsWith("http:")),
    );
    if (insecure.length === 0)
      return pass(`All ${dom.subresources.length} subresource URL(s) are https, relative or data: URLs.`);
    return failWith(
      `Load ${insecure.length} subresource(s) over https instead of http`,
      insecure.map((r) => ({ message: `${r.attribute} uses http:`, selector: r.selector, url: r.raw })),
      `${insecure.length} of ${dom.subresources.length} subresource URL(s) use plain http.`,
    );
  },
};
