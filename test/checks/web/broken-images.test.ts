import { afterAll, expect, test } from "bun:test";
import type { NetworkEntry } from "../../../src/capture/artifacts";
import { brokenImages } from "../../../src/validations/web/broken-images";
import { PNG, evaluate, img, localServer, selectors, services, withDom } from "../support/web-artifacts";

const site = localServer({
  "/logo.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  // An image served with a wrong type still counts: its bytes are sniffed.
  "/photo": () => new Response(PNG, { headers: { "content-type": "application/octet-stream" } }),
  "/notes.png": () => new Response("just text", { headers: { "content-type": "text/plain" } }),
});
afterAll(() => site.stop());

const page = site.url("/page.html");
const loaded = (url: string, over: Partial<NetworkEntry> = {}): NetworkEntry => ({
  url,
  resourceType: "image",
  status: 200,
  bytes: PNG.length,
  contentType: "image/png",
  ...over,
});
/** An image the browser had not requested when the DOM was read (lazy). */
const lazy = { complete: false, naturalWidth: 0 };

test("images that loaded, lazy images the server gives, and an SVG without intrinsic size pass; images without a source are not judged", async () => {
  const retried = "https://cdn.example/retried.png";
  const images = [
    img("#logo", site.url("/logo.png")),
    img("#retried", retried),
    img("#lazy", site.url("/logo.png#lazy"), lazy),
    img("#lazy-typed", site.url("/photo"), lazy),
    img("#svg", "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'></svg>", { naturalWidth: 0 }),
    img("#empty", ""),
    img("#blank", "about:blank"),
  ];
  // The browser's answer that worked wins over an earlier failed attempt.
  const network = [
    loaded(site.url("/logo.png")),
    loaded(retried, { status: 0, failure: "net::ERR_CONNECTION_RESET" }),
    loaded(retried),
  ];
  const svc = services();
  const out = await evaluate(brokenImages, withDom({ url: page, images }, { network }), {}, svc);
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("All 5 image(s)");
  // Only the lazy image the browser never requested was fetched: #lazy's URL (fragment dropped) is in the network log.
  expect(svc.probe.requests).toBe(1);
});

test("error statuses, refused and failed requests, undecodable bytes and data: URLs fail, by selector and URL", async () => {
  const images = [
    img("#fine", site.url("/logo.png")),
    img("#kettle", "https://cdn.example/kettle-main.jpg", { naturalWidth: 0 }),
    img("#intranet", "http://10.0.0.1/a.png", { naturalWidth: 0 }),
    img("#reset", "https://cdn.example/reset.png", { naturalWidth: 0 }),
    img("#html", "https://cdn.example/page-not-image.png", { naturalWidth: 0 }),
    img("#bad-data", "data:text/plain,hello", { naturalWidth: 0 }),
    img("#lazy-missing", site.url("/missing.png"), lazy),
    img("#lazy-text", site.url("/notes.png"), lazy),
  ];
  const network = [
    loaded(site.url("/logo.png")),
    loaded("https://cdn.example/kettle-main.jpg", { status: 404, contentType: "text/html" }),
    loaded("http://10.0.0.1/a.png", { status: 0, failure: "net::ERR_BLOCKED_BY_CLIENT" }),
    loaded("https://cdn.example/reset.png", { status: 0, failure: "net::ERR_CONNECTION_RESET" }),
    loaded("https://cdn.example/page-not-image.png", { contentType: "text/html" }),
  ];
  const blockedRequests = [
    { url: "http://10.0.0.1/a.png", reason: "private", detail: "10.0.0.1 is a private address" },
  ];
  const out = await evaluate(brokenImages, withDom({ url: page, images }, { network, blockedRequests }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual([
    "#kettle",
    "#intranet",
    "#reset",
    "#html",
    "#bad-data",
    "#lazy-missing",
    "#lazy-text",
  ]);
  const cause = (selector: string) => out.findings.find((f) => f.selector === selector)!.message;
  expect(cause("#kettle")).toBe("https://cdn.example/kettle-main.jpg: HTTP 404");
  expect(cause("#intranet")).toBe(
    "http://10.0.0.1/a.png: refused by the network guard (private: 10.0.0.1 is a private address)",
  );
  expect(cause("#reset")).toBe("https://cdn.example/reset.png: the request failed: net::ERR_CONNECTION_RESET");
  expect(cause("#html")).toBe(
    "https://cdn.example/page-not-image.png: HTTP 200 but the body is not a decodable image (served as text/html)",
  );
  expect(cause("#bad-data")).toBe("data:text/plain,hello…: the data: URL (text/plain) is not a decodable image");
  expect(cause("#lazy-missing")).toBe(`${site.url("/missing.png")}: HTTP 404`);
  expect(cause("#lazy-text")).toBe(
    `${site.url("/notes.png")}: HTTP 200 but the body is not an image (served as text/plain)`,
  );
  expect(out.findings.find((f) => f.selector === "#kettle")!.measured).toEqual({ status: 404 });
});
