import { expect, test } from "bun:test";
import { emailLayoutNotBroken } from "../../../src/validations/email/email-layout-not-broken";
import { email, evaluate, failedRender, render, renderImage, withRenders } from "../support/email-artifacts";

const ID = emailLayoutNotBroken.meta.id;
const H1 = "html > body > table > tbody > tr > td > h1";
const P = "html > body > table > tbody > tr > td > p:nth-of-type(1)";
const overlap = {
  a: H1,
  b: P,
  textA: "Spring sale starts today",
  textB: "Twenty-five percent off every walking boot",
  width: 295,
  height: 20,
};

test("passes renders with no overlapping text; a blocked remote image is not broken", async () => {
  const remote = renderImage("html > body > img", "https://cdn.trailhead.example/hero.jpg");
  const out = await evaluate(
    emailLayoutNotBroken,
    await withRenders(ID, [
      render("mobile-sm", "apple-mail-ios", { snapshot: { images: [remote] } }),
      render("desktop-md", "apple-mail"),
    ]),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("Apple Mail (iPhone) at mobile-sm (375px), Apple Mail (macOS) at desktop-md (880px)");
});

test("fails overlapping text in one render, naming both elements and the client", async () => {
  const out = await evaluate(
    emailLayoutNotBroken,
    await withRenders(ID, [
      render("mobile-sm", "apple-mail-ios", { layout: { textOverlaps: [overlap] } }),
      render("desktop-md", "apple-mail"),
    ]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message:
        'Apple Mail (iPhone): "Spring sale starts today" overlaps "Twenty-five percent off every walking b…" by 295×20px',
      selector: `${H1} ↔ ${P}`,
      viewport: "mobile-sm",
      measured: { client: "apple-mail-ios", width: 295, height: 20 },
    },
  ]);
});

test("fails an embedded data: image that does not decode; a hidden one does not count", async () => {
  const broken = renderImage("html > body > img:nth-of-type(1)", "data:image/png;base64,AAAA", { source: "data" });
  const hidden = renderImage("html > body > img:nth-of-type(2)", "data:image/png;base64,BBBB", {
    source: "data",
    shown: false,
  });
  const out = await evaluate(
    emailLayoutNotBroken,
    await withRenders(ID, [render("desktop-md", "apple-mail", { snapshot: { images: [broken, hidden] } })]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector, f.url])).toEqual([
    ["Apple Mail (macOS): an embedded image does not decode", broken.selector, broken.url],
  ]);
});

test("renders that all failed are an error naming each client; renders never made are an error too", async () => {
  const out = await evaluate(
    emailLayoutNotBroken,
    await withRenders(ID, [failedRender("desktop-md", "outlook-windows", "simulated crash")]),
  );
  expect(out.verdict).toBe("error");
  expect(out.reason).toStartWith("The message could not be rendered in Outlook for Windows");
  expect(out.reason).toEndWith("at desktop-md (simulated crash).");
  expect(out.findings).toEqual([
    { message: "render failed: simulated crash", viewport: "desktop-md", text: "outlook-windows" },
  ]);
  const none = await evaluate(emailLayoutNotBroken, await email({ html: "<p>x</p>" }));
  expect(none).toMatchObject({ verdict: "error", reason: "The message was not rendered for this check." });
});
