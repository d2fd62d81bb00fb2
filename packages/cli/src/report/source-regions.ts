import { readFileSync } from "node:fs";
import { selectOne } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import { parse } from "parse5";
import { adapter } from "parse5-htmlparser2-tree-adapter";

/**
 * Where an element a finding names lies in an HTML file's source. The job answers findings with a CSS selector
 * taken from the page as the browser built it; the file is parsed the way a browser parses it (parse5, the HTML
 * standard's tree construction, so implied <html>, <head> and <body> are where the selector expects them), with
 * each element's source position, and the selector is matched over that tree (css-select). A selector that matches
 * nothing (an element a script added) or that css-select cannot read, and an element the parser implied (no tag in
 * the source), have no region: the result points at the file alone.
 */

/** A SARIF region: 1-based lines and columns of the element's start tag (the end column one past it), and the tag. */
export interface SourceRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  snippet: { text: string };
}

interface Located {
  sourceCodeLocation?: {
    startTag?: {
      startLine: number;
      startCol: number;
      endLine: number;
      endCol: number;
      startOffset: number;
      endOffset: number;
    };
  } | null;
}

/** A lookup of selectors in one HTML source; each selector is resolved once. */
export function sourceRegions(html: string): (selector: string) => SourceRegion | undefined {
  const doc = parse(html, { treeAdapter: adapter, sourceCodeLocationInfo: true }) as unknown as Document;
  const found = new Map<string, SourceRegion | undefined>();
  return (selector) => {
    if (!found.has(selector)) found.set(selector, regionOf(html, doc, selector));
    return found.get(selector);
  };
}

function regionOf(html: string, doc: Document, selector: string): SourceRegion | undefined {
  let element: Element | null;
  try {
    element = selectOne<AnyNode, Element>(selector, doc);
  } catch {
    return undefined;
  }
  const tag = (element as (Element & Located) | null)?.sourceCodeLocation?.startTag;
  if (!tag) return undefined;
  return {
    startLine: tag.startLine,
    startColumn: tag.startCol,
    endLine: tag.endLine,
    endColumn: tag.endCol,
    snippet: { text: html.slice(tag.startOffset, tag.endOffset) },
  };
}

/** The regions of an HTML file by selector; a file that cannot be read has none. */
export function fileRegions(path: string): (selector: string) => SourceRegion | undefined {
  let html: string;
  try {
    html = readFileSync(path, "utf8");
  } catch {
    return () => undefined;
  }
  return sourceRegions(html);
}
