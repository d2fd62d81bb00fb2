import { withDefaults } from "./check-run";
import type {
  AnchorInfo,
  AxeNode,
  AxeRuleResult,
  AxeSummary,
  ControlInfo,
  DomSnapshot,
  HeadingInfo,
  ImageInfo,
  KeyboardWalk,
  LayoutSnapshot,
  MetaInfo,
  TextBlock,
  WebArtifacts,
} from "../../../src/capture/artifacts";
import { VIEWPORTS, type CaptureSize } from "../../../src/capture/vocabulary";
import { NetworkGuard } from "../../../src/capture/network-guard";
import { UrlProbe } from "../../../src/capture/url-probe";
import type { CheckServices, Outcome, WebValidation } from "../../../src/validations/types";

/**
 * Hand-built WebArtifacts for the web checks' unit tests: every field a sensible empty default, typed against
 * the real artifact interfaces, so a change of artifact shape breaks these tests when they are type-checked.
 * Each builder takes the fields a check reads as overrides.
 */

export const PAGE_URL = "https://shop.example/";

const viewportOf = (size: CaptureSize) => ({ width: VIEWPORTS[size].width, height: VIEWPORTS[size].height });

/** The DOM at desktop-md; pageText, when not given, is the visible text blocks' text in order. */
function dom(over: Partial<DomSnapshot> = {}): DomSnapshot {
  const { width, height } = viewportOf("desktop-md");
  const visibleText = over.visibleText ?? [];
  return {
    url: PAGE_URL,
    viewport: { width, height },
    htmlLang: "en",
    title: "Fixture",
    metas: [],
    headings: [],
    images: [],
    anchors: [],
    visibleText,
    pageText: visibleText.map((b) => b.text).join(" "),
    linkElements: [],
    formControls: [],
    subresources: [],
    jsonLd: [],
    scrollWidth: width,
    scrollHeight: height,
    ...over,
  };
}

/** Artifacts with an empty DOM at desktop-md, plus the given fields. */
export function artifacts(over: Partial<WebArtifacts> = {}): WebArtifacts {
  return { finalUrl: PAGE_URL, dom: { "desktop-md": dom() }, ...over };
}

/** Artifacts whose desktop-md DOM has the given fields (what every DOM check reads), plus other artifacts. */
export const withDom = (over: Partial<DomSnapshot>, more: Omit<Partial<WebArtifacts>, "dom"> = {}): WebArtifacts =>
  artifacts({ ...more, dom: { "desktop-md": dom(over) } });

/** Artifacts with a layout at each given size: what the visual checks read. */
export function withLayouts(layouts: Partial<Record<CaptureSize, Partial<LayoutSnapshot>>>): WebArtifacts {
  const built: Partial<Record<CaptureSize, LayoutSnapshot>> = {};
  for (const [size, over] of Object.entries(layouts) as Array<[CaptureSize, Partial<LayoutSnapshot>]>)
    built[size] = layout(size, over);
  return artifacts({ layout: built });
}

export function layout(size: CaptureSize, over: Partial<LayoutSnapshot> = {}): LayoutSnapshot {
  const viewport = viewportOf(size);
  return {
    viewport,
    documentWidth: viewport.width,
    documentHeight: viewport.height,
    textOverlaps: [],
    controls: [],
    overflowing: [],
    brokenImages: [],
    brokenWords: [],
    visibleH1: null,
    ...over,
  };
}

/** 16px regular text, outside code. */
export function text(selector: string, content: string, over: Partial<TextBlock> = {}): TextBlock {
  return { selector, text: content, inCode: false, fontSizePx: 16, fontWeight: 400, ...over };
}

export const heading = (selector: string, level: number, content: string): HeadingInfo => ({
  selector,
  visible: true,
  level,
  text: content,
});

export const meta = (over: Partial<MetaInfo>): MetaInfo => ({
  name: null,
  property: null,
  httpEquiv: null,
  content: null,
  ...over,
});

/** A URL as the page at PAGE_URL resolves it, or "" when it does not resolve (as the capture records it). */
export function resolved(href: string): string {
  try {
    return new URL(href, PAGE_URL).href;
  } catch {
    return "";
  }
}

/** A link; resolved against PAGE_URL unless given. */
export const anchor = (selector: string, href: string, over: Partial<AnchorInfo> = {}): AnchorInfo => ({
  selector,
  visible: true,
  href,
  resolved: resolved(href),
  text: selector,
  ...over,
});

/** An <img> that loaded and decoded (naturalWidth 64), with alt text. */
export function img(selector: string, src: string, over: Partial<ImageInfo> = {}): ImageInfo {
  return { selector, visible: true, tag: "img", src, hasAlt: true, alt: "", naturalWidth: 64, complete: true, ...over };
}

/** A shown, plain (not button-styled, not inline) link at the given box. */
export function control(selector: string, box: ControlInfo["box"], over: Partial<ControlInfo> = {}): ControlInfo {
  return {
    selector,
    tag: "a",
    type: "",
    text: selector,
    href: "",
    shown: true,
    display: "inline-block",
    visibility: "visible",
    opacity: 1,
    box,
    buttonStyled: false,
    inline: false,
    currentNavItem: false,
    ...over,
  };
}

/** An axe rule result (a violation or an incomplete) on the given elements, tagged WCAG 2.0 A unless told. */
export function axeRule(id: string, nodes: AxeNode[], over: Partial<AxeRuleResult> = {}): AxeRuleResult {
  return {
    id,
    impact: "serious",
    help: `${id} help`,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${id}`,
    tags: ["wcag2a"],
    nodeCount: nodes.length,
    nodes,
    ...over,
  };
}

/** axe-core's results, all WCAG A/AA tags run, nothing found unless given. */
export function axeSummary(over: Partial<AxeSummary> = {}): AxeSummary {
  return {
    version: "4.14.1",
    tags: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"],
    violations: [],
    incomplete: [],
    passes: [],
    inapplicable: [],
    ...over,
  };
}

/** A probe that may reach loopback (the tests' local servers) and nothing private beyond it. */
export const services = (): CheckServices => ({ probe: new UrlProbe(new NetworkGuard(true)) });

/** A keyboard walk that left the page after 4 Tab presses through 3 elements, with the given fields. */
export const keyboardWalk = (over: Partial<KeyboardWalk> = {}): KeyboardWalk => ({
  tabbable: 3,
  end: "left",
  presses: 4,
  stops: [],
  stopsCapped: false,
  ...over,
});

/** Runs a check as the job service does: the parameters' defaults filled in, then the given ones. */
export async function evaluate(
  check: WebValidation,
  input: WebArtifacts,
  params: Record<string, unknown> = {},
  svc: CheckServices = services(),
): Promise<Outcome> {
  return check.evaluate(input, withDefaults(check.meta, params), svc);
}

/** Every finding's selector (in order), for asserting exactly which elements a check reports. */
export const selectors = (outcome: Outcome) => outcome.findings.map((f) => f.selector);

/** A 16×16 PNG. */
export const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mOQizpBEmIY1TCqYfhqAAB1t0AQ8dIAngAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** A real HTTP server on 127.0.0.1 for the checks that go to the network: answers by path, 404 elsewhere. */
export function localServer(routes: Record<string, (req: Request) => Response>) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const route = routes[new URL(req.url).pathname];
      return route ? route(req) : new Response("not found", { status: 404 });
    },
  });
  return { url: (path: string) => `http://127.0.0.1:${server.port}${path}`, stop: () => server.stop(true) };
}
