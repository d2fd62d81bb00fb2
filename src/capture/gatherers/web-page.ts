import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { IsolatedWorld } from "../isolated-world";
import type { NetworkGuard } from "../network-guard";
import type { PageNetwork } from "../page-network";
import type { TextReader } from "../ocr";
import { gathererFor } from "./gatherer";

/** The limits the web gatherers keep to (part of the capture's limits, web-capture.ts). */
export interface GatherLimits {
  /** Full-page screenshots stop at this height (CSS pixels); the finding says when a page was cut. */
  screenshotMaxHeight: number;
  /**
   * Lab vitals are final once nothing has happened for this long: no request in flight, none started or
   * finished, and no new largest-contentful-paint candidate…
   */
  vitalsQuietMs: number;
  /** …or, at the latest, this long after load: the vitals are then reported as not final. */
  vitalsCapMs: number;
  /**
   * After a resize, geometry is read once the transitions and animations running then have ended (a sidebar
   * sliding away), but never later than this; the sizes where something still moved at the cap are reported.
   */
  resizeStillCapMs: number;
}

/** What a loaded webpage offers its gatherers. */
export interface WebPage {
  page: Page;
  cdp: CDPSession;
  /** Assay's isolated world in the page's main frame, the scheduled gatherers' page helpers installed in it. */
  world: IsolatedWorld;
  /** The job's browser context: a blank page in it decodes pictures where no subject script can reach. */
  context: BrowserContext;
  guard: NetworkGuard;
  network: PageNetwork;
  limits: GatherLimits;
  /** When the load event came (performance.now()). */
  loadedAt: number;
  /** Image URLs named by the checks' parameters, measured to compare the page's images against. */
  referenceImages: readonly string[];
  /** CSS selectors whose elements' boxes are measured at each size ("mask-boxes": a run's visual masks). */
  maskSelectors: readonly string[];
  /** Axe tags beyond WCAG A and AA that the checks' parameters ask for (AAA's wcag2aaa). */
  axeTags: readonly string[];
  /** Reads the text in pictures ("image-text"): Tesseract, shared by the process. */
  textReader: TextReader;
}

/** What a webpage offers its gatherers before it loads. */
export interface WebSetup {
  network: PageNetwork;
  referenceImages: readonly string[];
}

/** Declares a web gatherer: one module in gatherers/, one line in the table (gatherers/index.ts). */
export const defineWebGatherer = gathererFor<WebPage, WebSetup>();
