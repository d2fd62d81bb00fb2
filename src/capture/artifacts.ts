import type { CaptureSize } from "../validations/types";

/** One element of interest, located by a unique CSS selector. */
export interface ElementRef {
  selector: string;
  visible: boolean;
}

export interface TextBlock {
  /** The element whose own text nodes these are. */
  selector: string;
  text: string;
  /** Inside <code>, <pre>, <kbd> or <samp>. */
  inCode: boolean;
  fontSizePx: number;
  fontWeight: number;
  /** Computed text colour as [r, g, b, a] (0-255, alpha 0-1). */
  color: [number, number, number, number];
  /** The nearest ancestor background, composited down to opaque (white when none is set). */
  background: [number, number, number];
}

export interface LinkElementInfo {
  rel: string;
  href: string;
  resolved: string;
}

export interface FormControlInfo extends ElementRef {
  tag: string;
  type: string;
  /** How the control is labelled, or null when it has no accessible label (placeholder does not count). */
  labelledBy: "label-for" | "ancestor-label" | "aria-label" | "aria-labelledby" | "title" | null;
}

export interface SubresourceRef {
  selector: string;
  /** Where the URL was written: src, href, srcset, poster, style url(), <style> url(). */
  attribute: string;
  raw: string;
  resolved: string;
}

export interface HeadingInfo extends ElementRef {
  level: number;
  text: string;
}

export interface ImageInfo extends ElementRef {
  tag: "img" | "input";
  src: string;
  hasAlt: boolean;
  alt: string | null;
  naturalWidth: number;
  complete: boolean;
}

export interface AnchorInfo extends ElementRef {
  href: string;
  /** Absolute URL, or "" when the href does not resolve. */
  resolved: string;
  text: string;
}

export interface MetaInfo {
  name: string | null;
  property: string | null;
  httpEquiv: string | null;
  content: string | null;
}

/** The DOM as the browser built it, at one viewport: everything the DOM checks read. */
export interface DomSnapshot {
  url: string;
  viewport: { width: number; height: number };
  htmlLang: string | null;
  /** Text of the first <title> in <head>, or null when there is none. */
  title: string | null;
  metas: MetaInfo[];
  headings: HeadingInfo[];
  images: ImageInfo[];
  anchors: AnchorInfo[];
  visibleText: TextBlock[];
  /** All visible text in reading order, white space collapsed. */
  pageText: string;
  linkElements: LinkElementInfo[];
  formControls: FormControlInfo[];
  subresources: SubresourceRef[];
  /** Raw text of each <script type="application/ld+json">. */
  jsonLd: string[];
  scrollWidth: number;
  scrollHeight: number;
}

/** Everything gathered for one job, once; each check reads what it needs and none re-gathers. */
export interface WebArtifacts {
  finalUrl: string;
  dom: Partial<Record<CaptureSize, DomSnapshot>>;
  layout?: Partial<Record<CaptureSize, LayoutSnapshot>>;
  screenshots?: Partial<Record<CaptureSize, Screenshot>>;
  /** Every request the page made, as the network guard answered it. */
  network?: NetworkEntry[];
  console?: ConsoleEntry[];
  axe?: AxeSummary;
  vitals?: LabVitals;
  /**
   * Requests the network guard refused (subresources, frames, WebSockets, redirect hops), in order: the URL
   * refused, the guard's reason (loopback, private, link-local, ...) and detail, and for a refused redirect
   * hop, the URL the page asked for.
   */
  blockedRequests?: Array<{ url: string; reason: string; detail: string; requestedUrl?: string }>;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ControlInfo {
  selector: string;
  tag: string;
  type: string;
  text: string;
  /** Rendered with area: not display:none, visibility:hidden or opacity 0. */
  shown: boolean;
  display: string;
  visibility: string;
  opacity: number;
  /** Page coordinates (scroll offset added). */
  box: Box;
  /** A background unlike its parent's, or a border: it looks like a button. */
  buttonStyled: boolean;
  /** A link inside a sentence, exempt from target-size rules. */
  inline: boolean;
}

/** Geometry at one viewport, for the visual checks and the inspector judge. */
export interface LayoutSnapshot {
  viewport: { width: number; height: number };
  documentWidth: number;
  documentHeight: number;
  textOverlaps: Array<{ a: string; b: string; textA: string; textB: string; width: number; height: number }>;
  controls: ControlInfo[];
  /** Outermost elements whose right edge passes the viewport, widest first. */
  overflowing: Array<{ selector: string; right: number; width: number }>;
  brokenImages: Array<{ selector: string; src: string }>;
  visibleH1: string | null;
}

export interface NetworkEntry {
  url: string;
  resourceType: string;
  /** 0 when no response came (refused or failed: see failure). */
  status: number;
  bytes: number;
  contentType?: string;
  finalUrl?: string;
  failure?: string;
  /** The subject's own document. */
  document?: boolean;
}

export interface ConsoleEntry {
  kind: "console.error" | "uncaught";
  text: string;
  url?: string;
}

export interface Screenshot {
  viewport: CaptureSize;
  contentType: string;
  width: number;
  height: number;
  /** The page's full height; more than height when the screenshot was cut. */
  pageHeight: number;
  cut: boolean;
  data: Uint8Array;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  tags: string[];
  nodes: Array<{ target: string; failureSummary: string }>;
}

export interface AxeSummary {
  version: string;
  violations: AxeViolation[];
  passes: number;
  incomplete: number;
}

/** Lab timings from the page's own performance entries (no throttling). */
export interface LabVitals {
  lcpMs: number | null;
  cls: number;
  fcpMs: number | null;
  loadMs: number | null;
}
