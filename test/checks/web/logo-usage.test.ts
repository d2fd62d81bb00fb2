import { expect, test } from "bun:test";
import type { ImageSourceInfo, ImagesSnapshot, PageImage } from "../../../src/capture/artifacts";
import type { CaptureSize } from "../../../src/capture/vocabulary";
import { logoUsage } from "../../../src/validations/web/logo-usage";
import { artifacts, evaluate, layout } from "../support/web-artifacts";

const LOGO = "https://brand.example/logo.png";
/** The reference logo, 200×50, as the capture measured it. */
const reference: ImageSourceInfo = {
  naturalWidth: 200,
  naturalHeight: 50,
  hash: "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0",
  thumbnail: new Array(768).fill(200),
  sha256: "aa11",
};

/** A shown <img> of the logo's natural size (200×50), painted at the given size. */
function copy(
  selector: string,
  painted: { width: number; height: number } | null = { width: 200, height: 50 },
  over: Partial<PageImage> = {},
): PageImage {
  return {
    selector,
    kind: "img",
    src: LOGO,
    shown: true,
    box: { x: 16, y: 16, width: painted?.width ?? 0, height: painted?.height ?? 0 },
    painted,
    fit: "fill",
    naturalWidth: 200,
    naturalHeight: 50,
    ...over,
  };
}

function page(
  bySize: Partial<Record<CaptureSize, PageImage[]>>,
  imageSources: Record<string, ImageSourceInfo> = {},
  referenceInfo: ImageSourceInfo = reference,
) {
  const images: Partial<Record<CaptureSize, ImagesSnapshot>> = {};
  for (const [size, list] of Object.entries(bySize) as Array<[CaptureSize, PageImage[]]>)
    images[size] = { viewport: layout(size).viewport, images: list, mediaBoxes: [] };
  return artifacts({ images, imageSources, referenceImages: { [LOGO]: referenceInfo } });
}

test("the logo shown at its proportions at every size passes; 2.5% off is still its proportions (the limit is 3%)", async () => {
  const out = await evaluate(
    logoUsage,
    page({
      "mobile-sm": [copy("#logo", { width: 100, height: 25 })],
      "desktop-md": [
        copy("#logo", { width: 205, height: 50 }),
        copy("#photo", { width: 300, height: 300 }, { src: "https://shop.example/photo.jpg" }),
      ],
    }),
    { logoUrl: LOGO },
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("#logo painted 205×50 (ratio 4.100), natural 200×50 (ratio 4.000), +2.5%");
  expect(out.reasoning).not.toContain("#photo");
});

test("the same picture under another name (same bytes) is the logo; the URL's fragment is ignored", async () => {
  const renamed = "https://cdn.example/assets/acme-4c1f.png";
  const out = await evaluate(
    logoUsage,
    page(
      {
        "desktop-md": [copy("#header-logo", undefined, { src: renamed })],
        "mobile-sm": [copy("#footer-logo", undefined, { src: `${LOGO}#small`, kind: "background" })],
      },
      { [renamed]: { ...reference } },
    ),
    { logoUrl: LOGO },
  );
  expect(out.verdict).toBe("pass");
});

test("a logo hidden at one size and squeezed at another fails, each by selector and size", async () => {
  const out = await evaluate(
    logoUsage,
    page({
      "mobile-sm": [copy("html > body > header > a > img", null, { shown: false })],
      "desktop-md": [
        copy("html > body > header > a > img", { width: 200, height: 80 }),
        copy("html > body > footer > div", { width: 260, height: 50 }, { kind: "background" }),
      ],
    }),
    { logoUrl: LOGO },
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.viewport, f.selector, f.measured?.distortionPercent])).toEqual([
    ["mobile-sm", "html > body > header > a > img", undefined],
    ["desktop-md", "html > body > header > a > img", -37.5],
    ["desktop-md", "html > body > footer > div", 30],
  ]);
  expect(out.findings[0]!.message).toBe(
    "At mobile-sm the logo (html > body > header > a > img) is not shown: hidden, without area, failed to load, or outside the 375px width",
  );
  expect(out.findings[1]!.message).toStartWith("At desktop-md the logo is squeezed narrow: painted 200×80");
  expect(out.findings[2]!.message).toStartWith("At desktop-md the logo is stretched wide: painted 260×50");
});

test("a different picture is not the logo: a size where only it is shown fails as absent", async () => {
  const other = "https://shop.example/hero.png";
  const out = await evaluate(
    logoUsage,
    page(
      { "mobile-sm": [copy("#hero", undefined, { src: other })], "desktop-md": [copy("#logo")] },
      { [other]: { ...reference, sha256: "bb22", hash: "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f" } },
    ),
    { logoUrl: LOGO },
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "At mobile-sm the logo is not on the page", viewport: "mobile-sm" }]);
});

test("a logo that could not be loaded and is nowhere by URL is an error, not a verdict", async () => {
  const out = await evaluate(
    logoUsage,
    page(
      { "desktop-md": [] },
      {},
      { naturalWidth: 0, naturalHeight: 0, hash: null, thumbnail: null, error: "HTTP 404" },
    ),
    { logoUrl: LOGO },
  );
  expect(out.verdict).toBe("error");
  expect(out.reason).toContain("HTTP 404");
});
