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
  scrollWidth: number;
  scrollHeight: number;
}

/** Everything gathered for one job, once; each check reads what it needs and none re-gathers. */
export interface WebArtifacts {
  finalUrl: string;
  dom: Partial<Record<CaptureSize, DomSnapshot>>;
}
