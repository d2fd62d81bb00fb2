import { pass, type Finding, type WebValidation } from "../types";
import type { NetworkEntry } from "../../capture/artifacts";
import { decodeDataUrl, sniffImage, type UrlProbe } from "../../capture/url-probe";
import { domAt, domCheck } from "./_helpers";

/** rel tokens that declare an icon: icon (and "shortcut icon"), apple-touch-icon (and its -precomposed form). */
const ICON_RELS = new Set(["icon", "apple-touch-icon", "apple-touch-icon-precomposed"]);
const isImageType = (t: string | undefined) => /^image\//i.test((t ?? "").trim());

type IconCheck = { ok: true; how: string } | { ok: false; why: string };

/**
 * Whether an icon URL gives an image: a data: URL is decoded here; an http(s) URL the browser already
 * fetched is read from the network log (status and type), anything else is fetched through the guard and
 * its bytes sniffed (an icon served as application/octet-stream still counts when its bytes are an image).
 */
async function checkIcon(url: string, network: NetworkEntry[], probe: UrlProbe): Promise<IconCheck> {
  if (url.startsWith("data:")) {
    const data = decodeDataUrl(url);
    const sniffed = data ? sniffImage(data.bytes) : null;
    return sniffed
      ? { ok: true, how: `data: URL holding ${sniffed}` }
      : { ok: false, why: `the data: URL (${data?.mediaType ?? "unparseable"}) is not an image` };
  }
  if (!/^https?:/i.test(url)) return { ok: false, why: "not an http(s) or data: URL" };
  const seen = network.find(
    (e) => e.url === url && !e.failure && e.status >= 200 && e.status < 300 && isImageType(e.contentType),
  );
  if (seen) return { ok: true, how: `the browser loaded it: HTTP ${seen.status}, ${seen.contentType}` };
  const failed = network.find((e) => e.url === url && (e.failure || e.status >= 400));
  if (failed) return { ok: false, why: failed.failure ?? `HTTP ${failed.status}` };
  const res = await probe.get(url);
  if (res.kind === "refused") return { ok: false, why: `refused by the network guard (${res.reason}: ${res.detail})` };
  if (res.kind === "failed") return { ok: false, why: `the request failed (${res.detail})` };
  if (res.status !== 200) return { ok: false, why: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}` };
  const sniffed = res.body ? sniffImage(res.body) : null;
  if (sniffed) return { ok: true, how: `HTTP 200, ${res.contentType ?? sniffed}` };
  return {
    ok: false,
    why: `HTTP 200 but not an image (served as ${res.contentType ?? "no content type"}, bytes are not a known image format)`,
  };
}

export const favicon: WebValidation = {
  meta: domCheck({
    id: "favicon",
    name: "Favicon present",
    category: "functional",
    severity: "minor",
    summary: "The page has a working icon for tabs, bookmarks and home screens.",
    judgment:
      'When the page declares icons (<link rel="icon">, "shortcut icon", "apple-touch-icon"), passes when at least one of them loads as an image (HTTP 200 with image bytes, or a data: URL holding an image). With no declaration, browsers ask for /favicon.ico on the page\'s origin: that is fetched server-side through the network guard and passes when it answers HTTP 200 with an image. Fails otherwise, naming each icon tried and why it did not work.',
    needs: ["dom", "network"],
    references: [
      { title: 'MDN: <link rel="icon">', url: "https://developer.mozilla.org/en-US/docs/Web/HTML/Attributes/rel#icon" },
      { title: 'HTML standard: link type "icon"', url: "https://html.spec.whatwg.org/multipage/links.html#rel-icon" },
    ],
  }),
  async evaluate(artifacts, _params, services) {
    const dom = domAt(artifacts);
    const network = artifacts.network ?? [];
    const declared = dom.linkElements.filter((l) => l.rel.split(/\s+/).some((t) => ICON_RELS.has(t)) && l.href.trim());
    if (declared.length > 0) {
      const checks = await Promise.all(declared.map((l) => checkIcon(l.resolved || l.href, network, services.probe)));
      const good = checks.findIndex((c) => c.ok);
      if (good >= 0) {
        const c = checks[good] as { how: string };
        return pass(
          `${declared.length} icon(s) declared; <link rel="${declared[good]!.rel}" href="${declared[good]!.href.slice(0, 80)}"> works (${c.how}).`,
        );
      }
      const findings: Finding[] = declared.map((l, i) => ({
        message: `<link rel="${l.rel}"> ${(l.resolved || l.href).slice(0, 120)}: ${(checks[i] as { why: string }).why}`,
        selector: `link[rel="${l.rel}"]`,
        url: (l.resolved || l.href).slice(0, 300),
      }));
      return {
        verdict: "fail",
        reason: `None of the ${declared.length} declared icon(s) loads as an image; fix the href of ${findings[0]!.message}${findings.length > 1 ? `; +${findings.length - 1} more` : ""}`,
        reasoning: `${declared.length} icon link(s) declared in <head>, none gave an image.`,
        findings,
      };
    }
    let fallback: string;
    try {
      const origin = new URL(dom.url).origin;
      if (!/^https?:/.test(origin)) throw new Error("no http(s) origin");
      fallback = `${origin}/favicon.ico`;
    } catch {
      return {
        verdict: "fail",
        reason: `Declare an icon with <link rel="icon" href="..."> in <head>: the page declares none and its URL (${dom.url}) has no http(s) origin for /favicon.ico`,
        reasoning: "No icon link element; no origin to ask for /favicon.ico.",
        findings: [{ message: 'no <link rel="icon"> in <head>' }],
      };
    }
    const ico = await checkIcon(fallback, network, services.probe);
    if (ico.ok) return pass(`No icon link declared; ${fallback} works (${ico.how}).`);
    return {
      verdict: "fail",
      reason: `Add <link rel="icon" href="..."> to <head>, or serve an icon at ${fallback}: the page declares no icon and ${fallback} gave ${ico.why}`,
      reasoning: `No <link rel="icon">, "shortcut icon" or "apple-touch-icon" in the page; the default ${fallback} did not give an image (${ico.why}).`,
      findings: [
        { message: 'no <link rel="icon"> in <head>', selector: "head" },
        { message: `${fallback}: ${ico.why}`, url: fallback },
      ],
    };
  },
};
