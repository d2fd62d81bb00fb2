import type { AxeSummary } from "./artifacts";
import type { IsolatedWorld } from "./isolated-world";
// Embedded as text so the compiled binary carries it; injected straight into the page, which measured
// 3-4x faster here than the @axe-core/playwright wrapper.
// @ts-expect-error TypeScript types this import as the axe module; Bun's text import makes it its source string.
import axeSource from "../../node_modules/axe-core/axe.min.js" with { type: "text" };

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** axe-core in Assay's isolated world: the page's own `define`, timers or built-ins cannot reach it. */
export async function runAxe(world: IsolatedWorld): Promise<AxeSummary> {
  await world.load(axeSource as string);
  return world.run(async (tags: string[]) => {
    const axe = (window as unknown as { axe: any }).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return {
      version: axe.version as string,
      violations: r.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        tags: v.tags,
        nodes: v.nodes.slice(0, 20).map((n: any) => ({ target: n.target.join(" "), failureSummary: n.failureSummary ?? "" })),
      })),
      passes: r.passes.length,
      incomplete: r.incomplete.length,
    };
  }, AXE_TAGS);
}
