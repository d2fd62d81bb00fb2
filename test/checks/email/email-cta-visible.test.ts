import { describe, expect, test } from "bun:test";
import { startServer } from "../../support/harness";
import { runEmailMessage } from "../../support/fixture-runs";
import { relatedMessage, svgOfText } from "../../support/painted-text";
import { emailCtaVisible } from "../../../src/validations/email/email-cta-visible";
import { evaluate, render, renderImage, renderLink, withRenders, type RenderFields } from "../support/email-artifacts";

const ID = emailCtaVisible.meta.id;
const SALE = "https://trailhead.example/sale?utm_source=email";
const BUTTON = "html > body > table > tbody > tr > td > table > tbody > tr > td > a";
const button = (over: Parameters<typeof renderLink>[3] = {}) =>
  renderLink(BUTTON, SALE, "Shop the sale", { buttonStyled: true, ...over });
const both = (mobile: RenderFields, desktop: RenderFields) =>
  withRenders(ID, [render("mobile-sm", "apple-mail-ios", mobile), render("desktop-md", "apple-mail", desktop)]);

test("passes a button visible and readable in every render", async () => {
  const out = await evaluate(
    emailCtaVisible,
    await both({ snapshot: { links: [button()] } }, { snapshot: { links: [button()] } }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(`"Shop the sale" (${SALE})`);
});

test("passes a message whose only links are plain text or unsubscribe buttons: there is no call to action", async () => {
  const links = [
    renderLink("html > body > p > a", "https://trailhead.example/", "Trailhead"),
    renderLink("html > body > a", "https://trailhead.example/u", "Unsubscribe", { buttonStyled: true }),
  ];
  const out = await evaluate(emailCtaVisible, await both({ snapshot: { links } }, { snapshot: { links } }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toStartWith("No button-styled link or linked image");
});

test("fails a button whose text has under 3:1 contrast (white text on a blocked background image), in each render", async () => {
  const unreadable = button({ contrast: 1 });
  const out = await evaluate(
    emailCtaVisible,
    await both({ snapshot: { links: [unreadable] } }, { snapshot: { links: [unreadable] } }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector, f.url, f.viewport])).toEqual([
    [
      'Apple Mail (iPhone): its text "Shop the sale" has 1.00:1 contrast against what is behind it',
      BUTTON,
      SALE,
      "mobile-sm",
    ],
    [
      'Apple Mail (macOS): its text "Shop the sale" has 1.00:1 contrast against what is behind it',
      BUTTON,
      SALE,
      "desktop-md",
    ],
  ]);
});

test("follows the button found in the first render through the others: gone, hidden, off screen, or without text", async () => {
  const cases: Array<[RenderFields, string]> = [
    [{ snapshot: { links: [] } }, "Apple Mail (macOS): it is gone"],
    [{ snapshot: { links: [button({ shown: false })] } }, "Apple Mail (macOS): it is hidden"],
    [
      { snapshot: { links: [button({ visibleShare: 0.4 })] } },
      "Apple Mail (macOS): only 40% of it is within the 880px width",
    ],
    [
      { snapshot: { links: [button({ text: " " })] } },
      "Apple Mail (macOS): it shows no text: an image without alt text, and images are blocked",
    ],
  ];
  for (const [desktop, message] of cases) {
    const out = await evaluate(emailCtaVisible, await both({ snapshot: { links: [button()] } }, desktop));
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f) => [f.message, f.selector, f.url])).toEqual([[message, BUTTON, SALE]]);
  }
});

test("the primary call to action is the largest button, the one followed", async () => {
  const small = renderLink("html > body > p > a", "https://trailhead.example/journal", "Read more", {
    buttonStyled: true,
    box: { x: 20, y: 200, width: 100, height: 30 },
  });
  const out = await evaluate(
    emailCtaVisible,
    await both({ snapshot: { links: [small, button()] } }, { snapshot: { links: [small, button({ shown: false })] } }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.url])).toEqual([["Apple Mail (macOS): it is hidden", SALE]]);
});

test("a linked image of at least 40×20px is a call to action too", async () => {
  const img = renderImage("html > body > a > img", "https://cdn.trailhead.example/shop.png", {
    link: SALE,
    box: { x: 0, y: 0, width: 200, height: 50 },
  });
  const imageLink = renderLink("html > body > a", SALE, "", {
    box: { x: 0, y: 0, width: 200, height: 50 },
    contrast: null,
  });
  const out = await evaluate(
    emailCtaVisible,
    await both(
      { snapshot: { images: [img], links: [imageLink] } },
      { snapshot: { images: [img], links: [imageLink] } },
    ),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual([
    "Apple Mail (iPhone): it shows no text: an image without alt text, and images are blocked",
    "Apple Mail (macOS): it shows no text: an image without alt text, and images are blocked",
  ]);
});

test('social icons rank below a real button, however large, and a button with href="#" is still the call to action', async () => {
  const icon = (network: string, x: number) => {
    const href = `https://www.${network}.com/trailhead`;
    const box = { x, y: 20, width: 120, height: 120 };
    return {
      img: renderImage(`#${network} img`, `https://cdn.trailhead.example/${network}.png`, {
        link: href,
        box,
        alt: network,
      }),
      link: renderLink(`#${network}`, href, network, { box, contrast: null }),
    };
  };
  const icons = [icon("facebook", 0), icon("instagram", 130)];
  const hash = renderLink(BUTTON, "#", "Shop the sale", {
    buttonStyled: true,
    box: { x: 20, y: 400, width: 160, height: 40 },
  });
  const snapshot = (cta: typeof hash) => ({
    snapshot: { images: icons.map((i) => i.img), links: [...icons.map((i) => i.link), cta] },
  });
  const out = await evaluate(emailCtaVisible, await both(snapshot(hash), snapshot({ ...hash, shown: false })));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector, f.url])).toEqual([
    ["Apple Mail (macOS): it is hidden", BUTTON, "#"],
  ]);
});

test("a linked image outranks a social icon even when the icon is larger", async () => {
  const href = "https://www.facebook.com/trailhead";
  const social = renderImage("#fb img", "https://cdn.trailhead.example/fb.png", {
    link: href,
    box: { x: 0, y: 0, width: 300, height: 300 },
    alt: "Facebook",
  });
  const banner = renderImage("#hero img", "https://cdn.trailhead.example/sale.png", {
    link: SALE,
    box: { x: 0, y: 400, width: 200, height: 50 },
    alt: "Shop the sale",
  });
  const links = [
    renderLink("#fb", href, "Facebook", { box: social.box, contrast: null }),
    renderLink("#hero", SALE, "Shop the sale", { box: banner.box, contrast: null }),
  ];
  const out = await evaluate(
    emailCtaVisible,
    await both(
      { snapshot: { images: [social, banner], links } },
      { snapshot: { images: [social, banner], links: [links[0]!] } },
    ),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.url])).toEqual([["Apple Mail (macOS): it is gone", SALE]]);
});

test('among links sharing its href (#), the call to action is followed by its text, not by size (sendwithus Mantra receipt\'s "My account")', async () => {
  const cta = renderLink("html > body > table > tbody > tr > td > a", "#", "My account", {
    buttonStyled: true,
    contrast: 1.9,
    box: { x: 80, y: 900, width: 210, height: 45 },
  });
  // A larger, readable link to "#" elsewhere (a footer's plain link, a wrapped block) is not the button.
  const other = renderLink("html > body > div > a", "#", "View this receipt online", {
    box: { x: 0, y: 1200, width: 600, height: 60 },
  });
  const out = await evaluate(
    emailCtaVisible,
    await both({ snapshot: { links: [cta, other] } }, { snapshot: { links: [other, cta] } }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual([
    'Apple Mail (iPhone): its text "My account" has 1.90:1 contrast against what is behind it',
    'Apple Mail (macOS): its text "My account" has 1.90:1 contrast against what is behind it',
  ]);
});

describe("a call to action painted in an image, read by OCR, in a message delivered over SMTP", () => {
  test("a linked image without alt whose label is painted in it is the call to action, and shows no text with images off", async () => {
    const server = await startServer();
    try {
      const key = (await server.signup()).apiKey;
      const button = svgOfText(["Shop now"], { width: 260, height: 80, size: 36 });
      const raw = relatedMessage(
        "Spring sale",
        `<html><body><p>Our spring catalogue is out.</p><a id="shop" href="https://trailhead.example/shop"><img src="cid:shop@trailhead" width="260" height="80"></a><p><a href="https://trailhead.example/more" style="background:#eee">Read more</a></p></body></html>`,
        [{ cid: "shop@trailhead", svg: button }],
      );
      const out = (await runEmailMessage(server, key, raw, [emailCtaVisible.meta.id])).results[0];
      expect(out.verdict).toBe("fail");
      expect(out.reason).toContain('"Shop now"');
      expect(out.findings[0].method).toBe("ocr");
      expect(out.findings[0].message).toContain('its label "Shop now" is painted in an image without alt text');
    } finally {
      await server.stop();
    }
  });

  test("a link whose button is painted on a span inside it is the call to action; an empty coloured link is none", async () => {
    const server = await startServer();
    try {
      const key = (await server.signup()).apiKey;
      const raw = relatedMessage(
        "Book a table",
        `<html><body><p>Our spring menu is here.</p><a href="https://bistro.example/empty" style="display:block;width:400px;height:80px;background:#c00"></a><a href="https://bistro.example/book"><span style="display:inline-block;padding:14px 28px;background:#1a56db;color:#ffffff">Book a table</span></a></body></html>`,
        [],
      );
      const out = (await runEmailMessage(server, key, raw, [emailCtaVisible.meta.id])).results[0];
      expect(out.verdict).toBe("pass");
      expect(out.reasoning).toContain('The call to action "Book a table" (https://bistro.example/book)');
    } finally {
      await server.stop();
    }
  });
});
