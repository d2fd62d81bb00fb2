import { Type } from "@sinclair/typebox";
import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { hostMatches } from "../shared/patterns";

export const linkDomainAllowlist: WebValidation = {
  meta: domCheck({
    id: "link-domain-allowlist",
    name: "Links stay on allowed domains",
    category: "content",
    severity: "major",
    summary: "Every http(s) link points at the page's own host or a domain you allow.",
    judgment:
      "Fails when an <a href> resolves to an http(s) URL whose host is neither the page's host nor one of the allowed domains (subdomains of an allowed domain are allowed). mailto:, tel: and fragment links are not checked.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "allowedDomains",
        description: "Domains links may point to, besides the page's own host.",
        format: "array of 1-100 domain names",
        schema: Type.Array(Type.String({ pattern: "^[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$" }), { minItems: 1, maxItems: 100 }),
        example: ["example.com", "help.example.com"],
      },
    ],
    references: [],
  }),
  evaluate(artifacts, params) {
    const allowed = (params.allowedDomains as string[]).map((d) => d.toLowerCase().replace(/^\.+|\.+$/g, ""));
    const dom = domAt(artifacts);
    const own = new URL(dom.url).hostname;
    const external = dom.anchors.filter((a) => {
      if (!/^https?:/.test(a.resolved)) return false;
      const host = new URL(a.resolved).hostname;
      return host !== own && !allowed.some((d) => hostMatches(host, d));
    });
    const checked = dom.anchors.filter((a) => /^https?:/.test(a.resolved)).length;
    if (external.length === 0) return pass(`All ${checked} http(s) link(s) point at ${own} or an allowed domain.`);
    return failWith(
      `Remove or change ${external.length} link(s) to domains outside the allowlist`,
      external.map((a) => ({
        message: `link to ${new URL(a.resolved).hostname}`,
        selector: a.selector,
        url: a.resolved,
      })),
      `${external.length} of ${checked} http(s) link(s) leave ${own} and the allowed domains (${allowed.join(", ")}).`,
    );
  },
};
