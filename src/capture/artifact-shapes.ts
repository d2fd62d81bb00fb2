/**
 * The shapes of what capture gathers: each artifact kind's readings (artifacts.ts puts them together as a job's
 * WebArtifacts). Below the gatherers, which produce them, and the checks, which read them.
 */
import type { CaptureSize } from "./vocabulary";

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
}

export interface LinkElementInfo {
  rel: string;
  href: string;
  resolved: string;
  /** Inside <head>; search engines and Lighthouse ignore a canonical link in <body>. */
  inHead: boolean;
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

/** A request the network guard refused (a subresource, a frame, a WebSocket, a redirect hop): the URL refused, the guard's reason (loopback, private, link-local, ...) and detail, and for a refused redirect hop, the URL the page asked for. */
export interface BlockedRequest {
  url: string;
  reason: string;
  detail: string;
  requestedUrl?: string;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A picture whose text may be read (the "image-text" gatherer): a shown <img> or <input type=image>. */
export interface PagePicture {
  selector: string;
  /** Its source URL (currentSrc first). */
  src: string;
  alt: string | null;
  /** Page coordinates, at the size the page loaded at (desktop-md). */
  box: Box;
  /** The selector of the link or button around it, if any. */
  control: string | null;
}

export interface ControlInfo {
  selector: string;
  tag: string;
  type: string;
  text: string;
  /** A link's resolved href ("" for other controls). */
  href: string;
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
  /**
   * The current item of a navigation: marked aria-current, or a link in a navigation landmark (<nav>,
   * role=navigation) to the page itself or marked active (class "active").
   */
  currentNavItem: boolean;
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
  /** Words broken letter by letter over 3 or more lines (a column narrower than the word): the word, its lines, the widest line. */
  brokenWords: Array<{ selector: string; word: string; lines: number; width: number }>;
  visibleH1: string | null;
}

export interface NetworkEntry {
  url: string;
  resourceType: string;
  /** 0 when no response came (refused or failed: see failure). */
  status: number;
  bytes: number;
  /** HTTP version of the response, as the network guard fetched it ("http/1.1"). */
  protocol?: string;
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

export interface DialogEntry {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  /** The text a prompt was accepted with; null when the dialog was dismissed. */
  answer: string | null;
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

/** What axe-core measured for one element's text contrast (its color-contrast check data). */
export interface AxeContrast {
  /** Hex colours as axe resolved them; null when it could not. */
  fgColor: string | null;
  bgColor: string | null;
  contrastRatio: number | null;
  /** "4.5:1" or "3:1" (large text). */
  expectedContrastRatio: string | null;
  fontSize: string;
  fontWeight: string;
  /** Why axe could not decide (bgImage, bgGradient, bgOverlap, fgAlpha, ...), or which comparison failed. */
  messageKey: string | null;
}

export interface AxeNode {
  target: string;
  /** axe's own account of the element: what to fix (violations), or why it could not decide (incomplete). */
  failureSummary: string;
  contrast?: AxeContrast;
  /** What Assay's own judgement of the element measured (its language rules: validations/shared/language-rules.ts). */
  measured?: Record<string, unknown>;
}

/** One rule's violations or its elements needing review (incomplete). */
export interface AxeRuleResult {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  tags: string[];
  /** Every element axe reported; nodes holds the first few. */
  nodeCount: number;
  nodes: AxeNode[];
}

/** axe-core's results on the page at desktop-md, run once with every WCAG A and AA tag. */
export interface AxeSummary {
  version: string;
  /** The tags axe ran with. */
  tags: string[];
  violations: AxeRuleResult[];
  /** Rules axe could not decide on some elements: they need a person's review. */
  incomplete: AxeRuleResult[];
  /** Rules that passed, and rules that found nothing to test: with the others, every rule that ran. */
  passes: Array<{ id: string; tags: string[] }>;
  inapplicable: Array<{ id: string; tags: string[] }>;
  /** Why axe did not run on the page (the rule lists are then empty). */
  notRun?: string;
  /** The text of each element with a lang attribute, read beside axe (capture/language-scopes.ts). */
  languageScopes?: LanguageScope[];
}

/** The text taking its language from one element's lang attribute (ACT's text inheriting its language). */
export interface LanguageScope {
  /** axe's selector for the element, its lang attribute as written, and whether it is the html element (3.1.1). */
  target: string;
  lang: string;
  page: boolean;
  /** Text nodes shown or exposed, names and descriptions, the page's title: up to 2,048 characters. */
  text: string;
}

/**
 * One text element axe left undecided for color-contrast, measured from rendered pixels (gatherers/contrast-pixels.ts):
 * the contrast of its fully covered glyph pixels against the pixels behind them, or why it was not measured.
 */
export interface GlyphContrast {
  /** axe's selector for the element. */
  target: string;
  /** Why its pixels were not measured (not found, animating, seen through a translucent layer, too thin…). */
  unmeasured?: string;
  /** The region measured: the text's box, in page pixels. */
  box?: Box;
  /** The region was cut at the size cap: only its top part was measured. */
  partial?: boolean;
  fontSizePx?: number;
  fontWeight?: number;
  /** The text has a shadow or a stroke, which may carry its contrast (a halo over a busy image). */
  shadow?: boolean;
  /** Its shadow is a halo around every glyph, which WCAG counts as its background: measured against the halo. */
  halo?: boolean;
  /** A lone character its widget's accessible name does not contain ("X" in "Close"): a symbol (WCAG 1.4.11), not text. */
  symbol?: { character: string; name: string };
  /** Why the rule does not apply to it (text the colour of its background, hidden from assistive technology). */
  notApplicable?: string;
  /** Pixels the glyphs touch, and those they cover fully (the glyphs' core, without anti-aliased edges). */
  glyphPixels?: number;
  corePixels?: number;
  /** The contrast ratio of each core pixel against the pixel behind it, at percentiles 0, 1, … 100. */
  percentiles?: number[];
  /** The text's colour as rendered (the median core pixel), and the darkest and lightest background under it. */
  color?: string;
  backgrounds?: [string, string];
}

/** axe-core's color-contrast rule at one size: its violations, the elements it left undecided, whether it passed any. */
export interface ContrastRule {
  version: string;
  violation?: AxeRuleResult;
  incomplete?: AxeRuleResult;
  passed: boolean;
  /** Why axe did not run on the page. */
  notRun?: string;
}

/**
 * Contrast at one size (gatherers/contrast-pixels.ts): axe-core's color-contrast rule there, and the elements it left
 * undecided measured from pixels, up to a cap.
 */
export interface ContrastPixels {
  viewport: CaptureSize;
  axe: ContrastRule;
  elements: GlyphContrast[];
  /** Elements axe left undecided (of which `elements` are the first measured). */
  candidates: number;
  /** The cap that stopped the measuring, when one did: how many elements, or how long. */
  capped?: string;
}

/** Lab timings from the page's own performance entries (no throttling). */
export interface LabVitals {
  lcpMs: number | null;
  cls: number;
  fcpMs: number | null;
  loadMs: number | null;
  /**
   * The page went quiet (no request in flight or finished, no new largest paint) for the quiet window before
   * the cap: the values are final. False when the cap cut the measurement short: LCP and CLS only grow, so
   * they are lower bounds.
   */
  final: boolean;
  /** How long after load the engine waited for the values to become final (the cap, when they did not). */
  waitedMs: number;
  capMs: number;
}

/** An image painted at one viewport: an <img> (or <input type=image>) or an element's CSS background-image url(). */
export interface PageImage {
  selector: string;
  kind: "img" | "background";
  /** Resolved URL of the image the browser painted (currentSrc for <img>, the url() for a background). */
  src: string;
  /** Rendered with area, at least partly inside the viewport's width, and (an <img>) not failed to load. */
  shown: boolean;
  /** Border box, page coordinates. */
  box: Box;
  /** The size the picture itself is painted at, after object-fit or background-size (and transforms); null when unknown. */
  painted: { width: number; height: number } | null;
  /** object-fit of an <img>; background-size of a background layer. */
  fit: string;
  /** The picture's natural size (0 when it did not decode). */
  naturalWidth: number;
  naturalHeight: number;
}

export interface ImagesSnapshot {
  viewport: { width: number; height: number };
  images: PageImage[];
  /** Areas painted by images, video and frames (page coordinates); colour measurements leave them out. */
  mediaBoxes: Box[];
}

/** One image source decoded in a blank page: natural size and a content fingerprint. */
export interface ImageSourceInfo {
  naturalWidth: number;
  naturalHeight: number;
  /**
   * 128-bit difference hash (luminance gradients of the picture over white, 9×8 across and 8×9 down) as hex:
   * the same picture at another resolution, format or file name gives a near-identical hash.
   */
  hash: string | null;
  /** The picture over white shrunk to 16×16, as 768 RGB values row by row: colour and layout at a glance. */
  thumbnail: number[] | null;
  /** SHA-256 of the file's bytes (hex): the same file under another name. */
  sha256?: string;
  /** Why the source could not be loaded or decoded. */
  error?: string;
}

/** The colours of one capture, binned: what the page looks like to users, pixel by pixel. */
export interface CapturePalette {
  viewport: CaptureSize;
  /** The capture's size in CSS pixels and the size of the sample taken from it (nearest-neighbour). */
  captureWidth: number;
  captureHeight: number;
  sampleWidth: number;
  sampleHeight: number;
  /** Pixels of the sample, and those left out because they lie inside images, video or frames. */
  totalPixels: number;
  maskedPixels: number;
  /** Non-empty colour bins (4 bits per channel): mean colour, pixel count, and where (capture coordinates) they lie. */
  bins: Array<{ rgb: [number, number, number]; count: number; box: Box }>;
}

/** How the keyboard walk got focus out of a trap (KeyboardWalk.leftBy). */
export type TrapExit = "announced key" | "help" | "Shift+Tab";

/** One place Tab stopped at, in the keyboard gatherer's walk (gatherers/keyboard.ts). */
export interface FocusStop {
  selector: string;
  text: string;
  /**
   * Whether anything on screen changed between the element focused and the element blurred (an outline, a border, an
   * indicator elsewhere): absent where it was not measured (a frame from another origin, past the cap).
   */
  indicator?: boolean;
}

/** What driving the page with the keyboard found: whether Tab gets out of it, and whether each stop shows focus. */
export interface KeyboardWalk {
  /** Elements in sequential focus navigation when the walk began. */
  tabbable: number;
  /**
   * How pressing Tab from where the page put focus ended: focus left the page (to the browser's controls), focus came
   * back to a stop it had been at without leaving even after Escape (a trap), or the walk reached its cap.
   */
  end: "left" | "trap" | "capped";
  presses: number;
  /** The stops Tab went round in, when it was trapped (also when a key the page announces then let focus out). */
  trap?: FocusStop[];
  /**
   * What let focus out of the trap: a key the page's text announces ("Press Ctrl+M to exit"), one the text a help
   * control in the trap revealed announces (then `end` is "left"), or Shift+Tab, going back the other way (`end`
   * stays "trap": Tab forwards never gets past it). Absent when nothing did.
   */
  leftBy?: TrapExit;
  /** The key that let focus out of the trap, as pressed ("Control+m", "Shift+Tab"). */
  escapedBy?: string;
  /** The help control in the trap that Enter was pressed on, and the text then told of a key to press. */
  helpFollowed?: FocusStop;
  /**
   * A stop of the trap that offers help ("How to leave") that the walk could not follow: Enter on it would leave the
   * page, or the help it revealed names no key. A person must judge.
   */
  trapHelp?: FocusStop;
  /** The stops of one round of Tab from the top of the page, each with whether focus showed on screen. */
  stops: FocusStop[];
  /** The round stopped at the cap on stops measured before focus left the page. */
  stopsCapped: boolean;
}
