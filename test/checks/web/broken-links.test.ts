import { afterAll, expect, test } from "bun:test";
import { brokenLinks } from "../../../src/validations/web/broken-links";
import { anchor, evaluate, localServer, services, withDom } from "../support/web-artifacts";
import { NetworkGuard } from "../../../src/capture/network-guard";
import { UrlProbe } from "../../../src/capture/url-probe";

const site = localServer({
  "/ok.html": () => new Response("<p>ok</p>", { headers: { "content-type": "text/html" } }),
  // Some servers do not do HEAD: the probe falls back to GET.
  "/nohead.html": (req) => (req.method === "HEAD" ? new Response(null, { status: 405 }) : new Response("<p>ok</p>")),
  "/gone.html": () => new Response("gone", { status: 410, statusText: "Gone" }),
});
afterAll(() => site.stop());

const page = site.url("/page.html");
const link = (selector: string, href: string, text = selector) =>
  anchor(selector, href, { resolved: new URL(href, page).href, text });

test("links that answer pass; fragments, mailto:, tel:, javascript: and the page itself are not requested", async () => {
  const svc = services();
  const out = await evaluate(
    brokenLinks,
    withDom({
      url: page,
      anchors: [
        link("#ok", "ok.html"),
        link("#ok-again", "ok.html#section"),
        link("#nohead", "nohead.html"),
        link("#top", "#top"),
        // page.html is not served: requested, it would be a 404.
        link("#self", "page.html#reviews"),
        link("#mail", "mailto:shop@example.com"),
        link("#tel", "tel:+441234567"),
        link("#js", "javascript:void(0)"),
      ],
    }),
    {},
    svc,
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("8 link(s): 2 distinct http(s) target(s), 5 skipped");
  // HEAD ok.html; HEAD then GET nohead.html.
  expect(svc.probe.requests).toBe(3);
});

test("an error status, a missing page and a refused target fail: every link to them, by selector and URL", async () => {
  const out = await evaluate(
    brokenLinks,
    withDom({
      url: page,
      anchors: [
        link("#ok", "ok.html", "About"),
        link("#pricing", "pricing.html", "Pricing"),
        link("#pricing-footer", "pricing.html#plans", "Plans"),
        link("#gone", "gone.html", "Old offer"),
        link("#intranet", "http://10.0.0.1/admin", "Intranet"),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.url, f.measured?.status])).toEqual([
    ["#pricing", site.url("/pricing.html"), 404],
    ["#pricing-footer", site.url("/pricing.html"), 404],
    ["#gone", site.url("/gone.html"), 410],
    ["#intranet", "http://10.0.0.1/admin", undefined],
  ]);
  expect(out.findings[2]!.message).toBe(`"Old offer" → ${site.url("/gone.html")}: HTTP 410 Gone`);
  expect(out.findings[3]!.message).toStartWith(
    '"Intranet" → http://10.0.0.1/admin: refused by the network guard: private',
  );
  expect(out.reason).toStartWith("Fix or remove 4 broken link(s) to 3 target(s)");
});

test("a target whose name DNS cannot answer for now is not called broken: alone it is an error, beside a broken link the fail names only that one", async () => {
  const hungDns = new NetworkGuard(true, async (host) => {
    if (host === "docs.down.example") throw Object.assign(new Error(`queryA ETIMEOUT ${host}`), { code: "ETIMEOUT" });
    return [{ address: "127.0.0.1", family: 4 }];
  });
  const svc = () => ({ probe: new UrlProbe(hungDns) });
  const alone = await evaluate(
    brokenLinks,
    withDom({
      url: page,
      anchors: [link("#ok", "ok.html"), link("#docs", "https://docs.down.example/guide", "Guide")],
    }),
    {},
    svc(),
  );
  expect(alone.verdict).toBe("error");
  expect(alone.reason).toBe(
    "1 of 2 link target(s) could not be asked (no answer within 30 s, or DNS could not answer), so the links could not all be checked",
  );
  const beside = await evaluate(
    brokenLinks,
    withDom({
      url: page,
      anchors: [link("#gone", "gone.html", "Old offer"), link("#docs", "https://docs.down.example/guide", "Guide")],
    }),
    {},
    svc(),
  );
  expect(beside.verdict).toBe("fail");
  expect(beside.findings.map((f) => f.selector)).toEqual(["#gone"]);
  expect(beside.reasoning).toContain(
    "1 target(s) could not be asked (no answer within 30 s, or DNS could not answer): https://docs.down.example/guide.",
  );
});
