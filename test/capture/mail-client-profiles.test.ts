import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer, type TestServer } from "../support/harness";
import { EmailRenderEngine } from "../../src/capture/mail-clients/render";
import { MAX_CHANGES, type RenderChange } from "../../src/capture/mail-clients/sanitize-record";
import { RULE_SOURCES } from "../../src/capture/mail-clients/rule-sources";
import { findEmailClient } from "../../src/catalog/email-clients";
import type { CaptureSize } from "../../src/capture/vocabulary";

/**
 * Every emulation profile, in real Chromium: a message that exercises the profile's rules, and the changes the
 * render records, each with the rule that caused it, its source and the line in the message.
 */

setDefaultTimeout(120_000);

let server: TestServer;
let engine: EmailRenderEngine;
beforeAll(async () => {
  server = await startServer();
  engine = new EmailRenderEngine(server.assay.pool);
}, 120_000);
afterAll(() => server.stop(), 120_000);

async function changesIn(clientId: string, html: string, formFactor: CaptureSize = "desktop-md") {
  const client = findEmailClient(formFactor, clientId);
  if (!client) throw new Error(`no client ${clientId} at ${formFactor}`);
  const out = await engine.render({ html, text: null }, { client, formFactor });
  if (!out.ok) throw new Error(`${clientId}: ${out.error}`);
  return out.render.changes;
}

const has = (changes: RenderChange[], change: Partial<RenderChange>) =>
  expect(changes).toContainEqual(expect.objectContaining(change));

/** Lines are counted from 1; the comments say which line each construct is on. */
const BASE = [
  "<!DOCTYPE html>", // 1
  '<html lang="en"><head><meta charset="utf-8">', // 2
  "<style>", // 3
  ".card { border-radius: 8px; padding: 16px; }", // 4
  "html .wrap { color: #111; }", // 5
  "@media (orientation: landscape) { .card { color: #222; } }", // 6
  "@media (max-width: 600px) { .card { width: 100% !important; } }", // 7
  "</style>", // 8
  "</head><body>", // 9
  '<div class="wrap"><a class="cta" href="https://shop.example/sale" style="display:inline-block; padding:12px 24px; background:#0a7;">Shop the sale</a></div>', // 10
  '<p onclick="track()">Hello<script>alert(1)</script></p>', // 11
  '<img src="https://cdn.example/hero.jpg" alt="Hero" width="600" height="300">', // 12
  "</body></html>", // 13
].join("\n");

describe("each profile records what it did to the message", () => {
  test("every profile: scripts, event handlers and remote images, with Assay's rule", async () => {
    for (const id of ["apple-mail", "gmail-web", "outlook-web", "outlook-windows", "yahoo-web", "thunderbird"]) {
      const changes = await changesIn(id, BASE);
      has(changes, { action: "element-removed", target: "<script>", line: 11, source: "assay" });
      has(changes, { action: "attribute-removed", target: 'onclick="track()"', selector: "p", source: "assay" });
      has(changes, { action: "images-blocked", source: "assay" });
    }
    // Apple Mail keeps the rest of the message as sent.
    const apple = await changesIn("apple-mail", BASE);
    expect(apple.filter((c) => c.source !== "assay")).toEqual([]);
  });

  test("Gmail (web and app): body styles, nested at-rules, height queries, prefixes, html selectors, data: images, the 102 KB clip", async () => {
    const html = [
      "<!DOCTYPE html>", // 1
      "<html><head><style>", // 2
      "html .wrap { color: #111; }", // 3
      "@media (max-height: 500px) { .wrap { color: #222; } }", // 4
      ".wrap { margin: -10px 0 0; }", // 5
      "</style>", // 6
      "<style>@media (max-width: 600px) { @media (min-width: 300px) { .wrap { color: red } } }</style>", // 7
      '</head><body><style>.late { color: red }</style><div class="wrap">Hi</div>', // 8
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">', // 9
      "</body></html>", // 10
    ].join("\n");
    for (const [id, formFactor] of [
      ["gmail-web", "desktop-md"],
      ["gmail-android", "mobile-sm"],
    ] as const) {
      const changes = await changesIn(id, html, formFactor);
      has(changes, { action: "style-block-removed", target: "<style>", line: 8, source: "caniemail" });
      has(changes, { action: "style-block-removed", line: 7, source: "observed" });
      has(changes, { action: "selector-removed", selector: "html .wrap", line: 3 });
      has(changes, {
        action: "media-query-removed",
        target: "@media (max-height: 500px)",
        line: 4,
        source: "gmail-css",
      });
      has(changes, { action: "declaration-removed", target: "margin: -10px 0px 0px", selector: ".wrap", line: 5 });
      has(changes, { action: "names-prefixed", target: "class and id names prefixed with m_" });
      has(changes, { action: "element-rewritten", target: "<body>", source: "observed" });
      has(changes, { action: "attribute-removed", selector: "img", line: 9, source: "caniemail" });
    }
    const long = `<html><body>${"<p>Spring sale, every boot a quarter off.</p>".repeat(2600)}</body></html>`;
    has(await changesIn("gmail-web", long), { action: "clipped", source: "observed", count: 1 });
    expect((await changesIn("apple-mail", long)).some((c) => c.action === "clipped")).toBe(false);
  });

  test("Gmail app with a non-Google account: every style block and every background image go, inline styles stay", async () => {
    const html = [
      "<html><head><style>.hero { color: #123; }</style></head><body>", // 1
      '<table><tr><td background="https://cdn.example/bg.jpg" style="background-image: url(https://cdn.example/bg.jpg); color: #fff;">', // 2
      '<div class="hero" style="background: #0a7 url(https://cdn.example/x.png) no-repeat; padding: 8px;">Spring sale</div>', // 3
      "</td></tr></table></body></html>", // 4
    ].join("\n");
    const changes = await changesIn("gmail-android-non-google", html, "mobile-sm");
    has(changes, { action: "style-block-removed", target: "<style>", line: 1, source: "caniemail" });
    has(changes, {
      action: "attribute-removed",
      target: 'background="https://cdn.example/bg.jpg"',
      selector: "td",
      line: 2,
    });
    has(changes, {
      action: "declaration-removed",
      target: "background-image: url(https://cdn.example/bg.jpg)",
      line: 2,
    });
    has(changes, { action: "declaration-removed", selector: "div.hero", line: 3 });
    expect(changes.some((c) => c.target.startsWith("padding"))).toBe(false);
    // The same message for a Google account keeps its style block and its backgrounds.
    const google = await changesIn("gmail-android", html, "mobile-sm");
    expect(google.some((c) => c.action === "style-block-removed" || /background/.test(c.target))).toBe(false);
  });

  test("new Outlook for Windows: Outlook on the web's rules, not Word's", async () => {
    const html = [
      "<html><head><style>.card { border-radius: 8px; }</style></head><body>", // 1
      '<!--[if mso]><p>Word only</p><![endif]--><div class="card" style="padding: 12px;">Hi</div>', // 2
      "</body></html>", // 3
    ].join("\n");
    const changes = await changesIn("outlook-new-windows", html);
    has(changes, { action: "names-prefixed", target: "class and id names prefixed with x_" });
    has(changes, { action: "element-rewritten", target: "<body>" });
    expect(changes.some((c) => c.source === "word-engine" || c.target === "border-radius: 8px")).toBe(false);
  });

  test("Outlook for Windows: conditional comments, Word's CSS limits (the CTA loses its padding), VML, web fonts", async () => {
    const html = [
      "<!DOCTYPE html>", // 1
      '<html><head><style>@font-face { font-family: "Brand"; src: url(https://fonts.example/b.woff2); }', // 2
      ".card { border-radius: 8px; display: flex; }", // 3
      "</style></head><body>", // 4
      '<!--[if mso]><v:roundrect fillcolor="#0a7" style="width:200px;height:40px"><v:textbox>Shop</v:textbox></v:roundrect><![endif]-->', // 5
      '<div class="card" style="margin: 0 auto; max-width: 600px;">', // 6
      '<a class="cta" href="https://shop.example" style="padding:12px 24px; font-family: Brand, Arial;">Shop the sale</a>', // 7
      "</div></body></html>", // 8
    ].join("\n");
    const changes = await changesIn("outlook-windows", html);
    has(changes, { action: "conditional-comments", source: "word-engine", count: 1 });
    has(changes, { action: "element-rewritten", target: "<v:roundrect>", source: "word-engine" });
    has(changes, {
      action: "declaration-removed",
      target: "padding: 12px 24px",
      selector: "a.cta",
      line: 7,
      source: "word-engine",
    });
    has(changes, {
      action: "declaration-removed",
      target: "border-radius: 8px",
      selector: ".card",
      line: 3,
      source: "caniemail",
    });
    has(changes, {
      action: "declaration-rewritten",
      target: "margin: 0 auto",
      selector: "div.card",
      line: 6,
      source: "word-engine",
    });
    has(changes, {
      action: "declaration-removed",
      target: "max-width: 600px",
      selector: "div.card",
      source: "word-engine",
    });
    has(changes, {
      action: "declaration-rewritten",
      target: "font-family: Brand, Arial",
      selector: "a.cta",
      source: "word-engine",
    });
    const padding = changes.find((c) => c.target === "padding: 12px 24px")!;
    expect(padding.rule).toContain("padding only on table cells");
  });

  test("Outlook.com and the Outlook app: x_ prefixes, @supports, negative margins, body to div", async () => {
    const html = [
      "<html><head><style>", // 1
      "@supports (display: block) { @media (max-width: 600px) { .col { width: 100%; } } }", // 2
      ".col { margin-left: -4px; }", // 3
      '</style></head><body><div class="col" id="main">Hi</div></body></html>', // 4
    ].join("\n");
    const web = await changesIn("outlook-web", html);
    has(web, { action: "names-prefixed", target: "class and id names prefixed with x_" });
    has(web, { action: "at-rule-removed", target: "@supports (display: block)", source: "caniemail" });
    has(web, { action: "declaration-removed", target: "margin-left: -4px", selector: ".col", line: 3 });
    has(web, { action: "element-rewritten", target: "<body>" });
    const app = await changesIn("outlook-ios", html, "mobile-sm");
    has(app, { action: "names-prefixed", target: "class and id names prefixed with x_" });
    expect(app.some((c) => c.target === "<body>")).toBe(false);
  });

  test("Yahoo: height becomes min-height, media queries on other features go, yiv prefixes", async () => {
    const html = [
      "<html><head><style>", // 1
      ".hero { height: 200px; }", // 2
      "@media (orientation: portrait) { .hero { height: 100px; } }", // 3
      '</style></head><body><div class="hero">Hi</div></body></html>', // 4
    ].join("\n");
    const changes = await changesIn("yahoo-web", html);
    has(changes, { action: "declaration-rewritten", target: "height: 200px", selector: ".hero", line: 2 });
    has(changes, { action: "media-query-removed", target: "@media (orientation: portrait)", line: 3 });
    has(changes, { action: "names-prefixed" });
  });

  test("Thunderbird and Samsung Email: caniemail's data (media queries in Thunderbird, min() in Samsung)", async () => {
    const html = [
      "<html><head><style>", // 1
      "@media (max-width: 600px) { .col { width: 100%; } }", // 2
      ".col { width: min(100%, 600px); }", // 3
      '</style></head><body><div class="col">Hi</div></body></html>', // 4
    ].join("\n");
    has(await changesIn("thunderbird", html), {
      action: "media-query-removed",
      target: "@media (max-width: 600px)",
      line: 2,
      source: "caniemail",
    });
    has(await changesIn("samsung-mail", html, "mobile-sm"), {
      action: "declaration-removed",
      target: "width: min(100%, 600px)",
      line: 3,
      source: "caniemail",
    });
  });

  test("a render keeps the first MAX_CHANGES distinct changes and counts the rest", async () => {
    const cells = Array.from({ length: MAX_CHANGES + 50 }, (_, i) => `<p style="border-radius: ${i + 1}px">${i}</p>`);
    const client = findEmailClient("desktop-md", "outlook-windows")!;
    const out = await engine.render(
      { html: `<html><body>${cells.join("\n")}</body></html>`, text: null },
      { client, formFactor: "desktop-md" },
    );
    if (!out.ok) throw new Error(out.error);
    // The sanitizer's changes are bounded; the render's own few (Word's layout limits here) come after them.
    expect(out.render.changes.filter((c) => c.action === "declaration-removed").length).toBe(MAX_CHANGES);
    expect(out.render.changesOmitted).toBeGreaterThanOrEqual(50);
    expect(out.render.changes[0]).toMatchObject({ target: "border-radius: 1px", selector: "p", line: 1 });
  });

  test("every source a change names is listed with its address and the date it was checked", () => {
    for (const source of Object.values(RULE_SOURCES)) {
      expect(source.url.length).toBeGreaterThan(5);
      expect(source.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("which elements each change applies to (what a visual verdict may cite)", () => {
  async function rendered(clientId: string, html: string, formFactor: CaptureSize = "desktop-md") {
    const client = findEmailClient(formFactor, clientId)!;
    const out = await engine.render({ html, text: null }, { client, formFactor });
    if (!out.ok) throw new Error(`${clientId}: ${out.error}`);
    const { changes, changesAt, snapshot } = out.render;
    /** The changes recorded on the element a link's text names, or on its ancestors. */
    const at = (text: string) => {
      const link = snapshot.links.find((l) => l.text === text) ?? snapshot.textBlocks.find((t) => t.text === text);
      if (!link) throw new Error(`no ${text} in ${clientId}`);
      return (changesAt[link.selector] ?? []).map((i) => changes[i]!);
    };
    return at;
  }

  test("Word: an inline padding on the link, a style block's padding on a div, nothing on an untouched paragraph", async () => {
    const at = await rendered(
      "outlook-windows",
      [
        "<!DOCTYPE html><html><head><style>.box { padding: 20px; }</style></head><body>",
        '<a class="cta" href="https://shop.example/" style="padding:12px 24px; background:#0a7; color:#fff">Shop</a>',
        '<div class="box"><p>Boxed</p></div>',
        "<p>Plain</p>",
        "</body></html>",
      ].join("\n"),
    );
    expect(at("Shop")).toContainEqual(
      expect.objectContaining({ action: "declaration-removed", target: "padding: 12px 24px", source: "word-engine" }),
    );
    expect(at("Boxed")).toContainEqual(expect.objectContaining({ action: "layout-limited", source: "word-engine" }));
    expect(at("Plain")).toEqual([]);
  });

  test("a media query marks what it styles only where it would hold: a phone query at a 375px client, not at a desktop one", async () => {
    const html = [
      "<!DOCTYPE html><html><head><style>",
      "@media (max-width: 600px) { .wrap { width: 100% !important; } }",
      '</style></head><body><table class="wrap" width="600"><tr><td>Inside</td></tr></table><p>Outside</p></body></html>',
    ].join("\n");
    const phone = await rendered("gmail-android-non-google", html, "mobile-sm");
    expect(phone("Inside")).toContainEqual(expect.objectContaining({ action: "style-block-removed", line: 1 }));
    expect(phone("Outside")).toEqual([]);
    const desktop = await rendered("thunderbird", html);
    expect(desktop("Inside")).toEqual([]);
  });

  test("a message cannot claim a change: its own marks are removed before the sanitizer's", async () => {
    const at = await rendered(
      "outlook-windows",
      '<!DOCTYPE html><html><body><p data-assay-change="0 1 2 w">Claims</p><p style="border-radius:4px">Radius</p></body></html>',
    );
    expect(at("Claims")).toEqual([]);
    expect(at("Radius")).toContainEqual(expect.objectContaining({ target: "border-radius: 4px" }));
  });
});
