import { chromium } from "playwright-core";
import { findChromium, LAUNCH_OPTIONS } from "../src/capture/chromium-launch";
import { decodedScreenshot, encodedPng } from "../src/capture/screenshot-codec";
import { diffImages } from "../src/domain/visual-diff";
import { LANDING_PAGE_HTML } from "./landing-page";

/**
 * What a run's visual comparison costs per page and size (docs/runs.md, "Visual comparison"): a real landing page
 * screenshotted by Chromium at 1280 px wide as Assay takes it (full-page JPEG, quality 80), once as it is and once
 * with a box moved, at its own height and repeated to about 8,000 px; then the two decoded (jpeg-js), diffed
 * (src/domain/visual-diff.ts) and the diff encoded (PNG), each timed, best of ROUNDS, with the CPU time of the three
 * (what a loaded machine does not inflate as much as the wall clock). `bun bench/visual-diff-bench.ts`.
 */

const ROUNDS = 5;

const browser = await chromium.launch({ ...LAUNCH_OPTIONS, executablePath: findChromium() });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

async function shot(html: string, moved: boolean): Promise<Uint8Array> {
  await page.setContent(html);
  if (moved)
    await page.evaluate(() => {
      const box = document.createElement("div");
      box.style.cssText = "position:absolute;left:40px;top:300px;width:200px;height:120px;background:#d33";
      document.body.append(box);
    });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  return page.screenshot({
    type: "jpeg",
    quality: 80,
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: Math.min(height, 8000) },
  });
}

const tall = LANDING_PAGE_HTML.replace(
  /<body([^>]*)>([\s\S]*)<\/body>/,
  (_, attrs, body) => `<body${attrs}>${body.repeat(6)}</body>`,
);
for (const [name, html] of [
  ["landing page", LANDING_PAGE_HTML],
  ["landing page × 6", tall],
] as const) {
  const before = await shot(html, false);
  const after = await shot(html, true);
  const best = { decode: Infinity, diff: Infinity, encode: Infinity, cpu: Infinity };
  let summary = "";
  for (let round = 0; round < ROUNDS; round++) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const a = decodedScreenshot({ contentType: "image/jpeg", data: before });
    const b = decodedScreenshot({ contentType: "image/jpeg", data: after });
    const t1 = performance.now();
    const d = diffImages(a, b, { threshold: 0.1, masks: [] });
    const t2 = performance.now();
    const encoded = encodedPng(d.diff);
    const t3 = performance.now();
    const used = process.cpuUsage(cpu);
    best.cpu = Math.min(best.cpu, (used.user + used.system) / 1000);
    best.decode = Math.min(best.decode, t1 - t0);
    best.diff = Math.min(best.diff, t2 - t1);
    best.encode = Math.min(best.encode, t3 - t2);
    summary = `${d.width}×${d.height}, JPEGs ${before.byteLength} and ${after.byteLength} bytes, ${(d.changedRatio * 100).toFixed(2)} % changed, diff PNG ${encoded.byteLength} bytes`;
  }
  const total = best.decode + best.diff + best.encode;
  console.log(
    `${name} (${summary}): decode both ${best.decode.toFixed(0)} ms, diff ${best.diff.toFixed(0)} ms, PNG ${best.encode.toFixed(0)} ms, total ${total.toFixed(0)} ms, CPU ${best.cpu.toFixed(0)} ms (best of ${ROUNDS})`,
  );
}
await browser.close();
