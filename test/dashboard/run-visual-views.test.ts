import { expect, test } from "bun:test";
import { percentChanged, VisualDiff } from "../../src/http/pages/dashboard/run-visual-views";

/**
 * The diff viewer as the run page draws it from a page's `visual` (the run view's shape): per size, the baseline,
 * the current screenshot and the diff image, then the overlay; nothing at all without a visual comparison.
 */

const visual = {
  changed: true,
  sizes: [
    {
      size: "desktop-md",
      changedRatio: 0.0421,
      diffUrl: "/api/captures/d1/shared?x=1",
      baselineUrl: "/api/captures/b1/shared?x=1",
      currentUrl: "/api/captures/c1/shared?x=1",
    },
    {
      size: "mobile-sm",
      changedRatio: 0,
      baselineUrl: "/api/captures/b2/shared",
      currentUrl: "/api/captures/c2/shared",
    },
  ],
};

test("each size shows baseline, current and diff in that order, then the overlay of current over baseline", () => {
  const html = String(VisualDiff({ pageKey: "https://shop.example/", visual }));
  const desktop = html.slice(0, html.indexOf('aria-label="https://shop.example/ at mobile-sm"'));
  expect(desktop).toContain("desktop-md</span>: 4.21% changed");
  const order = ["b1", "c1", "d1"].map((k) => desktop.indexOf(`<img src="/api/captures/${k}/shared?x=1"`));
  expect(order.every((i) => i > 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(desktop).toMatch(
    /<summary>Overlay<\/summary><div class="overlay"><img src="\/api\/captures\/b1\/[^>]+><img src="\/api\/captures\/c1\/[^>]+class="over"/,
  );
  const mobile = html.slice(html.indexOf('aria-label="https://shop.example/ at mobile-sm"'));
  expect(mobile).toContain("mobile-sm</span>: 0.00% changed");
  expect(mobile).not.toContain("Difference");
});

test("no visual comparison, or one without sizes: no viewer", () => {
  expect(String(VisualDiff({ pageKey: "p" }))).toBe("");
  expect(String(VisualDiff({ pageKey: "p", visual: { changed: false, sizes: [] } }))).toBe("");
  expect(percentChanged(0.00042)).toBe("0.042%");
});
