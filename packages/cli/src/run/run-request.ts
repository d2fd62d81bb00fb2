import {
  PROJECT_PATTERN,
  type IgnoreRule,
  type RunPageRequestBody,
  type RunRequestBody,
} from "../../../../src/contracts/run-request";
import { pageKeyOf } from "../../../../src/domain/page-key";
import { UsageError } from "../../../../src/cli/program";
import type { PageSelection } from "./site-config";

/**
 * The run a command line asks for, as one pure function: every source's pages (the config's, a sitemap's or a
 * crawl's, a built folder's) become the `pages` of the run request (POST /api/runs), each a job request of the
 * spec's shape with its name, in the order given, each page once by its pageKey.
 */

/** Where a page came from; an html page keeps its file so reports can point at it. */
export type PageSource =
  | { kind: "url"; url: string; from: "config" | "sitemap" | "crawl"; name?: string; selection?: PageSelection }
  | {
      kind: "html";
      /** The file, as the reports name it (relative to the working directory, forward slashes). */
      file: string;
      html: string;
      pageUrl: string;
      from: "config" | "dist";
      name?: string;
      selection?: PageSelection;
    };

export interface RunOptions {
  project: string;
  branch?: string;
  commit?: string;
  failOn?: string;
  /** What a page without a selection of its own is checked with (the config's defaults, or --set/--validation). */
  defaults?: PageSelection;
  ignores?: IgnoreRule[];
  visual?: RunRequestBody["visual"];
  wait?: boolean;
}

/** A page of the run as the client keeps it beside the request: index-aligned with `request.pages`. */
export interface PlannedPage {
  pageKey: string;
  name?: string;
  from: PageSource["from"];
  file?: string;
}

export interface RunPlan {
  request: RunRequestBody;
  pages: PlannedPage[];
  /** Pages given twice (by pageKey): the first kept, these dropped. */
  duplicates: Array<{ pageKey: string; from: PageSource["from"] }>;
}

const describe = (s: PageSource) => (s.kind === "url" ? s.url : `${s.file} (${s.pageUrl})`);

/** A page's selection: its own when it names validations or a set, else the defaults' selection; sizes and detail field by field. */
function selectionOf(source: PageSource, defaults: PageSelection = {}): PageSelection {
  const own = source.selection ?? {};
  const pick = own.validations !== undefined || own.validationSetId !== undefined ? own : defaults;
  const merged: PageSelection = {
    ...(pick.validations !== undefined ? { validations: pick.validations } : {}),
    ...(pick.validationSetId !== undefined ? { validationSetId: pick.validationSetId } : {}),
  };
  const captureSizes = own.captureSizes ?? defaults.captureSizes;
  const detail = own.detail ?? defaults.detail;
  if (captureSizes) merged.captureSizes = captureSizes;
  if (detail) merged.detail = detail;
  if (!merged.validations?.length && !merged.validationSetId)
    throw new UsageError(
      `${describe(source)}: nothing to check: give the page validations or validationSetId, or defaults (--set, --validation)`,
    );
  return merged;
}

export function buildRunRequest(sources: readonly PageSource[], options: RunOptions): RunPlan {
  if (!new RegExp(PROJECT_PATTERN).test(options.project))
    throw new UsageError(
      `project ${JSON.stringify(options.project)}: lower-case letters, digits, dots, dashes and underscores, starting with a letter or digit, at most 64`,
    );
  const pages: RunPageRequestBody[] = [];
  const planned: PlannedPage[] = [];
  const duplicates: RunPlan["duplicates"] = [];
  const keys = new Set<string>();
  for (const source of sources) {
    const subject =
      source.kind === "url"
        ? { type: "url" as const, url: source.url }
        : { type: "static_html" as const, html: source.html, baseUrl: source.pageUrl };
    const pageKey = pageKeyOf({ ...subject, ...(source.name ? { name: source.name } : {}) });
    if (keys.has(pageKey)) {
      duplicates.push({ pageKey, from: source.from });
      continue;
    }
    keys.add(pageKey);
    pages.push({ ...subject, ...selectionOf(source, options.defaults), ...(source.name ? { name: source.name } : {}) });
    planned.push({
      pageKey,
      from: source.from,
      ...(source.name ? { name: source.name } : {}),
      ...(source.kind === "html" ? { file: source.file } : {}),
    });
  }
  if (pages.length === 0)
    throw new UsageError("no pages to check: give pages in the config, --sitemap, --crawl or --dist");
  const request: RunRequestBody = {
    project: options.project,
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.commit ? { commit: options.commit } : {}),
    pages,
    ...(options.failOn ? { failOn: options.failOn } : {}),
    ...(options.ignores?.length ? { ignores: options.ignores } : {}),
    ...(options.visual ? { visual: options.visual } : {}),
    ...(options.wait !== undefined ? { wait: options.wait } : {}),
  };
  return { request, pages: planned, duplicates };
}
