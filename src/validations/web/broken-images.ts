import { pass, type Finding, type WebValidation } from "../types";
import type { ImageInfo, NetworkEntry, WebArtifacts } from "../../capture/artifacts";
import { decodeDataUrl, sniffImage, type UrlProbe } from "../../capture/url-probe";
import { domAt, domCheck } from "./_helpers";

const isSvg = (type: string | undefined) => /^image\/svg\+xml\b/i.test(type ?? "");
const withoutHash = (u: string) => u.replace(/#.*$/, "");

/** The browser's requests for an image URL: an answer that worked wins over a failed retry. */
function entryFor(network: NetworkEntry[], url: string): NetworkEntry | undefined {
  // An http image on an https page is upgraded by Chromium before it is requested.
  const candidates = [url, url.startsWith("http:") ? `https:${url.slice(5)}` : ""].filter(Boolean);
  const entries = network.filter((e) => candidates.includes(e.url));
  return entries.find((e) => !e.failure && e.status >= 200 && e.status < 400) ?? entries[entries.length - 1];
}

/** Why one image is broken, or null when it is fine (or not something this check can judge). */
async function diagnose(
  img: ImageInfo,
  artifacts: WebArtifacts,
  probe: UrlProbe,
): Promise<{ cause: string; status?: number } | null> {
  const src = withoutHash(img.src);
  const decodedNothing = img.tag === "img" && img.complete && img.naturalWidth === 0;
  if (src.startsWith("data:")) {
    if (!decodedNothing) return null;
    const data = decodeDataUrl(src);
    // An SVG with no width, height or viewBox has no natural size: 0 is not a failure there.
    if (data && isSvg(data.mediaType) && sniffImage(data.bytes) === "image/svg+xml") return null;
    return { cause: `the data: URL (${data?.mediaType ?? "unparseable"}) is not a decodable image` };
  }
  if (!/^https?:/i.test(src)) return decodedNothing ? { cause: "the browser could not decode it" } : null;

  const entry = entryFor(artifacts.network ?? [], src);
  if (entry) {
    if (entry.failure) {
      const blocked = (artifacts.blockedRequests ?? []).find(
        (b) => b.url === entry.url || b.requestedUrl === entry.url,
      );
      if (blocked) return { cause: `refused by the network guard (${blocked.reason}: ${blocked.detail})` };
      return { cause: `the request failed: ${entry.failure}` };
    }
    if (entry.status >= 400) return { cause: `HTTP ${entry.status}`, status: entry.status };
    if (decodedNothing && !isSvg(entry.contentType)) {
      return {
        cause: `HTTP ${entry.status} but the body is not a decodable image (served as ${entry.contentType ?? "no content type"})`,
        status: entry.status,
      };
    }
    return null;
  }
  // The browser never requested it (lazy, or still pending when the DOM was read): ask the server directly.
  if (img.complete && !decodedNothing) return null;
  const res = await probe.get(src);
  if (res.kind === "refused") return { cause: `refused by the network guard (${res.reason}: ${res.detail})` };
  if (res.kind === "failed") return res.error === "too-large" ? null : { cause: `the request failed: ${res.detail}` };
  if (res.status >= 400) return { cause: `HTTP ${res.status}`, status: res.status };
  const sniffed = res.body ? sniffImage(res.body) : null;
  if (!sniffed && !/^image\//i.test(res.contentType ?? "")) {
    return {
      cause: `HTTP ${res.status} but the body is not an image (served as ${res.contentType ?? "no content type"})`,
      status: res.status,
    };
  }
  return decodedNothing && !sniffed ? { cause: "the browser could not decode it" } : null;
}

export const brokenImages: WebValidation = {
  meta: domCheck({
    id: "broken-images",
    name: "No broken images",
    category: "functional",
    severity: "major",
    summary:
      "Every <img> on the page loads: no error status, no failed or refused request, no bytes that are not an image.",
    judgment:
      "For each <img> (and <input type=image>) at desktop-md, its resolved source (currentSrc) fails when the request got HTTP 400 or above, failed, or was refused by the network guard, or when it loaded but the browser could not decode it (naturalWidth 0 after load; SVGs without an intrinsic size excepted). Images the browser had not requested yet (lazy loading) are fetched server-side through the guard and judged the same way. An <img> without a source is not judged here.",
    needs: ["dom", "network"],
    references: [
      {
        title: "MDN: HTMLImageElement.naturalWidth",
        url: "https://developer.mozilla.org/en-US/docs/Web/API/HTMLImageElement/naturalWidth",
      },
    ],
  }),
  async evaluate(artifacts, _params, services) {
    const images = domAt(artifacts).images.filter((i) => i.src && !/^about:/i.test(i.src));
    const diagnoses = await Promise.all(images.map((img) => diagnose(img, artifacts, services.probe)));
    const findings: Finding[] = [];
    images.forEach((img, i) => {
      const d = diagnoses[i];
      if (!d) return;
      const shown = img.src.startsWith("data:") ? `${img.src.slice(0, 40)}…` : img.src;
      findings.push({
        message: `${shown}: ${d.cause}${img.visible ? "" : " (not visible)"}`,
        selector: img.selector,
        url: img.src.startsWith("data:") ? img.src.slice(0, 200) : img.src,
        viewport: "desktop-md",
        ...(d.status ? { measured: { status: d.status } } : {}),
      });
    });
    if (findings.length === 0)
      return pass(`All ${images.length} image(s) with a source loaded and decoded at desktop-md.`);
    const where = findings
      .slice(0, 3)
      .map((f) => `${f.selector} → ${f.message}`)
      .join("; ");
    return {
      verdict: "fail",
      reason: `Fix or replace ${findings.length} broken image(s): ${where}${findings.length > 3 ? `; +${findings.length - 3} more` : ""}`,
      reasoning: `${findings.length} of ${images.length} image(s) with a source did not load as an image at desktop-md.`,
      findings,
    };
  },
};
