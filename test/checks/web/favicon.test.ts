import { afterAll, expect, test } from "bun:test";
import type { LinkElementInfo } from "../../../src/capture/artifacts";
import { favicon } from "../../../src/validations/web/favicon";
import { PNG, evaluate, localServer, services, withDom } from "../support/web-artifacts";

// Served as application/octet-stream, as some servers do: its bytes make it an image.
const withIco = localServer({
  "/favicon.ico": () => new Response(PNG, { headers: { "content-type": "application/octet-stream" } }),
  "/icon.png": () => new Response(PNG),
});
const withoutIco = localServer({
  "/favicon.ico": () => new Response("<html>home</html>", { headers: { "content-type": "text/html" } }),
});
const bare = localServer({});
afterAll(() => {
  for (const s of [withIco, withoutIco, bare]) s.stop();
});

const icon = (rel: string, href: string): LinkElementInfo => ({
  rel,
  href,
  resolved: href.startsWith("data:") ? href : new URL(href, withIco.url("/")).href,
  inHead: true,
});
const PNG_DATA_URL = `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`;

test("a declared data: icon holding an image passes without a request", async () => {
  const svc = services();
  const out = await evaluate(favicon, withDom({ linkElements: [icon("icon", PNG_DATA_URL)] }), {}, svc);
  expect(out.verdict).toBe("pass");
  expect(svc.probe.requests).toBe(0);
});

test("a declared icon the browser loaded as an image passes from the network log", async () => {
  const url = "https://cdn.example/icon.svg";
  const svc = services();
  const out = await evaluate(
    favicon,
    withDom(
      { linkElements: [{ rel: "apple-touch-icon", href: url, resolved: url, inHead: true }] },
      { network: [{ url, resourceType: "image", status: 200, bytes: 300, contentType: "image/svg+xml" }] },
    ),
    {},
    svc,
  );
  expect(out.verdict).toBe("pass");
  expect(svc.probe.requests).toBe(0);
});

test("one working icon among broken ones is enough; a stylesheet link is no icon", async () => {
  const out = await evaluate(
    favicon,
    withDom(
      {
        url: withIco.url("/"),
        linkElements: [
          icon("stylesheet", "/missing.css"),
          icon("icon", "/missing.png"),
          icon("shortcut icon", "/icon.png"),
        ],
      },
      { network: [{ url: withIco.url("/missing.png"), resourceType: "other", status: 404, bytes: 0 }] },
    ),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('2 icon(s) declared; <link rel="shortcut icon" href="/icon.png">');
});

test("without a declaration, /favicon.ico on the page's origin is fetched and its bytes sniffed", async () => {
  const out = await evaluate(favicon, withDom({ url: withIco.url("/shop/page.html") }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(withIco.url("/favicon.ico"));
});

test("declared icons that are not images fail, each named by selector and URL", async () => {
  const out = await evaluate(
    favicon,
    withDom({
      url: withIco.url("/"),
      linkElements: [icon("shortcut icon", "data:text/plain,not-an-icon"), icon("icon", "/missing.png")],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '<link rel="shortcut icon"> data:text/plain,not-an-icon: the data: URL (text/plain) is not an image',
      selector: 'link[rel="shortcut icon"]',
      url: "data:text/plain,not-an-icon",
    },
    {
      message: `<link rel="icon"> ${withIco.url("/missing.png")}: HTTP 404 Not Found`,
      selector: 'link[rel="icon"]',
      url: withIco.url("/missing.png"),
    },
  ]);
});

test("no declaration and no image at /favicon.ico fails, naming the URL tried", async () => {
  for (const [site, why] of [
    [bare, "HTTP 404 Not Found"],
    [withoutIco, "HTTP 200 but not an image (served as text/html, bytes are not a known image format)"],
  ] as const) {
    const out = await evaluate(favicon, withDom({ url: site.url("/") }));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([
      { message: 'no <link rel="icon"> in <head>', selector: "head" },
      { message: `${site.url("/favicon.ico")}: ${why}`, url: site.url("/favicon.ico") },
    ]);
  }
});

test("no declaration on a page without an http(s) origin fails", async () => {
  const out = await evaluate(favicon, withDom({ url: "about:blank" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: 'no <link rel="icon"> in <head>' }]);
});
