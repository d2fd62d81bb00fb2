import type { VarSpec } from "./declaration";

/** The section "Browsers" (CONFIG_SECTIONS.browsers), in the order docs/configuration.md lists it. */
export const BROWSERS_VARS = {
  CHROMIUM_PATH: {
    section: "browsers",
    kind: "path",
    defaultText: "found on `PATH`",
    doc: "Chromium or Chrome binary (also for `assay browser-worker`).",
  },
  PATH: {
    section: "browsers",
    kind: "text",
    defaultText: "the system's",
    doc: "Without `CHROMIUM_PATH`, its directories (colon-separated) are searched for `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable`.",
  },
  ASSAY_WEBKIT_OFF: {
    section: "browsers",
    kind: "flag",
    doc: "`1` turns WebKit off even where WebKitGTK's driver, MiniBrowser and Xvfb are installed: webpage jobs that name the `webkit` engine are refused (ENGINE_UNAVAILABLE, nothing charged) and Apple Mail's renders stay in Chromium, saying so (`engineNote`). Unset, both use WebKit whenever those programs are found ([engines](engines.md)).",
  },
  ASSAY_APPLE_MAIL_IN_WEBKIT: {
    section: "browsers",
    kind: "flag",
    doc: "`1`: Apple Mail's renders (macOS, iOS, iPadOS) are laid out again in WebKit, Apple Mail's own engine, where WebKitGTK is installed and `ASSAY_WEBKIT_OFF` is not set. Off by default: Apple Mail is the native default at every size, so every email job lays out several renders again in WebKit; even on warm sessions (`ASSAY_WEBKIT_SESSIONS`) a marketing-set job four at a time took 2.4 times as long from end of DATA to completed as with Apple Mail in Chromium on a loaded 2-core machine. Unset, Apple Mail stays in Chromium's emulation and its render says so (`engineNote`) ([engines](engines.md)).",
  },
  ASSAY_WEBKIT_SESSIONS: {
    section: "browsers",
    kind: "integer",
    min: 1,
    default: 2,
    doc: "WebKit renders at once, each on its own engine (an Xvfb, a WebKitWebDriver and its one MiniBrowser session); twice as many engines are kept warm between renders, started on first use, so a light and a dark mail session each stay warm. Mail renders (JavaScript off, nothing fetched) reuse a warm session; webpage renders get a fresh one. A render keeps about one core busy, so the default fits 2 cores; every WebKit render also waits for a turn of the browser pool ([engines](engines.md)).",
  },
  ASSAY_FIREFOX_PATH: {
    section: "browsers",
    kind: "path",
    defaultText: "`/usr/bin/firefox-esr`",
    doc: "The Firefox binary Gecko renders run in (Debian's `firefox-esr`, installed by `scripts/setup.mjs`), driven headless over WebDriver BiDi: webpage checks with the `gecko` engine and Thunderbird's renders. Where it is not found, jobs that name `gecko` are refused (ENGINE_UNAVAILABLE, nothing charged) and Thunderbird's renders stay in Chromium, saying so (`engineNote`) ([engines](engines.md)).",
  },
  ASSAY_GECKO_OFF: {
    section: "browsers",
    kind: "flag",
    doc: "`1` turns Gecko off even where Firefox is installed: webpage jobs that name the `gecko` engine are refused (ENGINE_UNAVAILABLE, nothing charged) and Thunderbird's renders stay in Chromium, saying so (`engineNote`) ([engines](engines.md)).",
  },
  ASSAY_TESSERACT_PATH: {
    section: "browsers",
    kind: "path",
    defaultText: "`tesseract` on `PATH`",
    doc: "The Tesseract OCR binary with its English data (Debian's `tesseract-ocr` and `tesseract-ocr-eng`, installed by `scripts/setup.mjs`), run offline to read text painted in images (`image-alt-text`, `cta-visible` and their email counterparts). When it cannot be started, those checks say so: a verdict the DOM alone decides stands, one that needed the text in an image is an error.",
  },
  ASSAY_BROWSER_POOL_SIZE: {
    section: "browsers",
    kind: "integer",
    min: 1,
    default: 2,
    doc: "Warm browsers in the capture pool (ignored with `ASSAY_BROWSER_ENDPOINTS`: one browser per worker).",
  },
  ASSAY_BROWSER_ENDPOINTS: {
    section: "browsers",
    kind: "list",
    doc: "Comma-separated `ws://` or `wss://` endpoints of browser workers (`assay browser-worker`, or playwright-core's `launchServer` with Assay's flags); set, the pool renders in them instead of launching Chromium here (no local Chromium needed). A malformed entry, or one named twice, stops the start naming this variable. See [browsers as remote workers](scaling.md#browsers-as-remote-workers).",
  },
  ASSAY_BROWSER_PAGES: {
    section: "browsers",
    kind: "integer",
    min: 1,
    defaultText: "cores ÷ browsers, at least 1; `1` per worker with `ASSAY_BROWSER_ENDPOINTS`",
    doc: "Pages each browser renders at once; further renders (of jobs and messages) wait their turn in arrival order.",
  },
  ASSAY_BROWSER_QUEUE: {
    section: "browsers",
    kind: "integer",
    default: 64,
    doc: "Webpage jobs that may wait for a turn; past it a job is refused with `SERVICE_UNAVAILABLE` (503, `Retry-After`) before it is charged.",
  },
} as const satisfies Record<string, VarSpec & { section: "browsers" }>;
