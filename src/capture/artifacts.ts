import type { ArtifactsOfAll } from "./gatherers/gatherer";
import type { WEB_GATHERERS } from "./gatherers";
import type { BlockedRequest, ConsoleEntry, DialogEntry, NetworkEntry } from "./artifact-shapes";
import type { CaptureSize, EmailArtifactKind } from "./vocabulary";

export type * from "./artifact-shapes";

/**
 * What every capture of a webpage records from before the page loads, whatever its checks need: the page's requests
 * as the network guard answered them (page-network.ts), and what the page said (page-console.ts).
 */
export interface PageRecords {
  /** Every request the page made, as the network guard answered it. */
  network: NetworkEntry[];
  /** The requests the network guard refused, in order. */
  blockedRequests: BlockedRequest[];
  /** Console errors and uncaught exceptions (a script Assay stopped among them). */
  console: ConsoleEntry[];
  /** The dialogs the page opened (up to a cap), with how each was answered. */
  dialogs: DialogEntry[];
}

/**
 * An artifact kind a webpage is captured for: the kinds of the gatherers' table (gatherers/index.ts), and the page's
 * records ("network": its requests; "console": what it said, for which the page is left quiet for a while after
 * load, since a late script may still throw).
 */
export type WebArtifactKind = (typeof WEB_GATHERERS)[number]["kind"] | "network" | "console";

/** What a check reads (its `needs`); a capture gathers only what the selected checks need. */
export type ArtifactKind = WebArtifactKind | EmailArtifactKind;

/**
 * Everything gathered for one webpage job, once; each check reads what it needs and none re-gathers. What a kind
 * adds is its gatherer's (gatherers/<kind>.ts); a kind that was not needed, or whose gatherer failed, is absent.
 */
export type WebArtifacts = {
  /** The page's URL once it had loaded and settled (a url job's final URL after its redirects). */
  finalUrl: string;
  /** Artifacts a gatherer could not read, with why: the checks that read them get an error row, the rest verdicts. */
  gatherFailures?: Partial<Record<ArtifactKind, string>>;
  /**
   * Sizes where transitions or animations were still running when geometry was read, the wait after the resize
   * (web-capture.ts, resizeStillCapMs) having reached its cap: the value is the cap, in ms.
   */
  stillMoving?: Partial<Record<CaptureSize, number>>;
} & Partial<PageRecords> &
  ArtifactsOfAll<(typeof WEB_GATHERERS)[number]>;
