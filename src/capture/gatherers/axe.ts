import type { AxeSummary } from "../artifact-shapes";
import { defineWebGatherer, type WebPage } from "./web-page";
import { assayAxeRulesScript, ZOOMED_AXE_RULES } from "../axe-rules";
import { languageScopesIn } from "../language-scopes";
import { atZoom } from "../page-resize";
import { timed } from "../../phases";
import { MEDIA_PROBE_OPTIONS, probeMedia } from "../axe-rules/media-probe";
// Embedded as text so the compiled binary carries it; injected straight into the page, which measured
// 3-4x faster here than the @axe-core/playwright wrapper.
// @ts-expect-error TypeScript types this import as the axe module; Bun's text import makes it its source string.
import axeSource from "../../../node_modules/axe-core/axe.min.js" with { type: "text" };

/**
 * Every WCAG level A and AA tag axe-core knows (2.0, 2.1, 2.2): axe runs once with all of them, and each check
 * keeps the rules of the standard it is asked for (accessibility-wcag's `standard`). AAA's rules run only when a
 * check's parameter asks for them (WebPage.axeTags): color-contrast-enhanced costs as much as color-contrast.
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/**
 * Rules axe-core ships but leaves out of a tag run, turned on by name. css-orientation-lock (WCAG 1.3.4) is marked
 * experimental by axe; it decides every W3C ACT case of its rule (b33eff) right. Its "needs review" only says that
 * a stylesheet could not be read (none on the page, or one from another origin), so it is not kept.
 */
const ALSO_RUN = ["css-orientation-lock"];

/** Elements kept per rule (the count of all of them is kept too). */
const NODES_PER_RULE = 20;

/**
 * "axe": axe-core's results on the page at the size it loaded at (desktop-md), run once with every WCAG A and AA
 * tag, in Assay's isolated world: the page's own `define`, timers or built-ins cannot reach it; then the rules that
 * judge the page zoomed to 200% (ZOOMED_AXE_RULES), on the page laid out as zoomed and given back afterwards. Media that plays by
 * itself is measured first for the audio-control rules (media-probe.ts): nothing to do on a page without any.
 */
export const axeGatherer = defineWebGatherer({
  kind: "axe",
  sizes: "once",
  dependsOn: [],
  gather: async (page) => {
    const axe = await runAxe(page.world, [...new Set([...AXE_TAGS, ...page.axeTags])], { probeMedia: true });
    if (axe.notRun) return { axe };
    const zoomed = await timed("gather axe at 200% zoom", () =>
      atZoom(page, () => axeRulesAgain(page.world, [...ZOOMED_AXE_RULES])),
    );
    return {
      axe: {
        ...axe,
        violations: [...axe.violations, ...zoomed.violations],
        incomplete: [...axe.incomplete, ...zoomed.incomplete],
        passes: [...axe.passes, ...zoomed.passes],
        inapplicable: [...axe.inapplicable, ...zoomed.inapplicable],
      },
    };
  },
});

/**
 * axe-core in `world` (a webpage's, or a mail-client render's: mail-clients/render.ts) with these tags, the rules
 * that judge a zoomed page left out (a mail client's render is not zoomed); the media probe only in a webpage (a mail
 * client plays nothing by itself, and its render's media stays unjudged).
 */
export async function runAxe(
  world: Pick<WebPage["world"], "load" | "run">,
  tags: string[],
  { probeMedia: probe = false } = {},
): Promise<AxeSummary> {
  await world.load(`${axeSource as string}\n${assayAxeRulesScript()}`);
  if (probe) await world.run(probeMedia, MEDIA_PROBE_OPTIONS);
  const summary = await axeIn(world, { type: "tag", values: tags }, ALSO_RUN, ZOOMED_AXE_RULES);
  return summary.notRun ? summary : { ...summary, languageScopes: await languageScopesIn(world) };
}

/**
 * axe-core's results for the named rules alone, axe already loaded in the world by the "axe" gatherer: the
 * contrast-pixels gatherer runs color-contrast again at each size it is read at besides the one axe ran at.
 */
export const axeRulesAgain = (world: WebPage["world"], rules: string[]) =>
  axeIn(world, { type: "rule", values: rules }, [], []);

/** axe's runOnly: the rules of some tags, or some rules by name. */
type RunOnly = { type: "tag" | "rule"; values: string[] };

/** axe-core's results for `runOnly`, the rules of `also` turned on and those of `off` off. */
function axeIn(
  world: Pick<WebPage["world"], "load" | "run">,
  runOnly: RunOnly,
  also: string[],
  off: readonly string[],
): Promise<AxeSummary> {
  return world.run(
    async ({
      runOnly,
      also,
      off,
      nodesPerRule,
    }: {
      runOnly: RunOnly;
      also: string[];
      off: readonly string[];
      nodesPerRule: number;
    }) => {
      const tags = runOnly.type === "tag" ? runOnly.values : [];
      const axe = (window as unknown as { axe: any }).axe;
      // An XML document without a stylesheet is shown in Chromium's own viewer, an HTML page it builds in the
      // document's place: axe would judge the viewer (its html element has no lang), not the subject.
      if (!document.contentType.includes("html") && document.getElementById("xml-viewer-style"))
        return {
          version: axe.version as string,
          tags,
          violations: [],
          incomplete: [],
          passes: [],
          inapplicable: [],
          notRun: `the document is ${document.contentType} without a stylesheet, shown in Chromium's XML viewer`,
        };
      const r = await axe.run(document, {
        runOnly,
        rules: Object.fromEntries([
          ...also.map((id) => [id, { enabled: true }]),
          ...off.map((id) => [id, { enabled: false }]),
        ]),
        resultTypes: ["violations", "incomplete"],
      });
      const checksOf = (n: any): any[] => [...(n.any ?? []), ...(n.all ?? []), ...(n.none ?? [])];
      const contrastOf = (n: any) => {
        const d = checksOf(n).find((c) => c.id === "color-contrast" || c.id === "color-contrast-enhanced")?.data;
        if (!d || typeof d !== "object") return undefined;
        return {
          fgColor: typeof d.fgColor === "string" ? d.fgColor : null,
          bgColor: typeof d.bgColor === "string" ? d.bgColor : null,
          contrastRatio: typeof d.contrastRatio === "number" ? d.contrastRatio : null,
          expectedContrastRatio: typeof d.expectedContrastRatio === "string" ? d.expectedContrastRatio : null,
          fontSize: String(d.fontSize ?? ""),
          fontWeight: String(d.fontWeight ?? ""),
          messageKey: typeof d.messageKey === "string" ? d.messageKey : null,
        };
      };
      const rule = (v: any) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        tags: v.tags,
        nodeCount: v.nodes.length,
        nodes: v.nodes.slice(0, nodesPerRule).map((n: any) => {
          const contrast = contrastOf(n);
          const message =
            checksOf(n)
              .map((c) => c.message)
              .find((m) => typeof m === "string" && m) ?? "";
          return {
            target: n.target.join(" "),
            failureSummary: n.failureSummary ?? message,
            ...(contrast ? { contrast } : {}),
          };
        }),
      });
      const ran = (v: any) => ({ id: v.id, tags: v.tags });
      return {
        version: axe.version as string,
        tags,
        violations: r.violations.map(rule),
        incomplete: r.incomplete.filter((v: any) => !also.includes(v.id)).map(rule),
        passes: r.passes.map(ran),
        inapplicable: r.inapplicable.map(ran),
      };
    },
    { runOnly, also, off, nodesPerRule: NODES_PER_RULE },
  );
}
