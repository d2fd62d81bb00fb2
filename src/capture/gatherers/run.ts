import { timed } from "../../phases";
import type { HelperGroup } from "../page-helpers";
import type { CaptureSize } from "../vocabulary";
import type { AnyGatherer, ArtifactsOfAll } from "./gatherer";

/**
 * A table of gatherers, checked when it is built: every dependency is in the table, no two share a kind, no
 * dependency circle, and nothing gathered at each size reads a kind gathered only after the sizes.
 */
export function gathererTable<const T extends readonly AnyGatherer[]>(table: T): T {
  const kinds = new Set<string>();
  for (const g of table) {
    if (kinds.has(g.kind)) throw new Error(`Two gatherers of the kind ${g.kind}`);
    kinds.add(g.kind);
    for (const d of g.dependsOn as readonly AnyGatherer[]) {
      if (!table.includes(d)) throw new Error(`${g.kind} depends on ${d.kind}, which is not in its table`);
    }
  }
  const all = scheduleGatherers(table, kinds);
  for (const g of all.atEachSize) {
    const late = (g.dependsOn as readonly AnyGatherer[]).find(
      (d) => (all.afterSizes.includes(d) && d.sizes === "once") || d.sizes === "background",
    );
    if (late) throw new Error(`${g.kind} is gathered at each size but reads ${late.kind}, gathered after the sizes`);
  }
  for (const g of table)
    if (g.sizes === "background" && g.dependsOn.length)
      throw new Error(`${g.kind} is begun in the background before anything else is gathered, so it can read nothing`);
  return table;
}

/** The gatherers a page runs, in dependency order, in the three stages of its life they run in. */
export interface Schedule<G extends AnyGatherer = AnyGatherer> {
  /** Begun first, at the size the page loaded at, and finished while the sizes are visited (awaited after them). */
  inBackground: G[];
  /** Once each, at the size the page loaded at, before any resize. */
  atLoad: G[];
  /** At each size, the page resized to it. */
  atEachSize: G[];
  /** Once each after every size: gatherers that read a kind gathered at each size, and the finishing steps of those. */
  afterSizes: G[];
  /** Every gatherer scheduled, in dependency order. */
  all: G[];
}

/**
 * The gatherers of `table` that `needs` names, with every one they depend on, in a topological order computed from
 * their dependencies (where the dependencies leave a choice, in the table's order). Kinds the table does not
 * gather are not its concern.
 */
export function scheduleGatherers<G extends AnyGatherer>(table: readonly G[], needs: Iterable<string>): Schedule<G> {
  const wanted = new Set<G>();
  const want = (g: G) => {
    if (wanted.has(g)) return;
    wanted.add(g);
    for (const d of g.dependsOn as readonly G[]) want(d);
  };
  const named = new Set(needs);
  for (const g of table) if (named.has(g.kind)) want(g);
  const all: G[] = [];
  while (all.length < wanted.size) {
    const next = table.find(
      (g) => wanted.has(g) && !all.includes(g) && (g.dependsOn as readonly G[]).every((d) => all.includes(d)),
    );
    if (!next)
      throw new Error(
        `The gatherers of ${[...wanted]
          .filter((g) => !all.includes(g))
          .map((g) => g.kind)
          .join(", ")} depend on one another in a circle`,
      );
    all.push(next);
  }
  // A gatherer runs after the sizes when it reads, directly or not, a kind gathered at each size or in the background.
  const afterSizes = new Set<G>();
  for (const g of all) {
    const deps = g.dependsOn as readonly G[];
    if (g.sizes === "once" && deps.some((d) => d.sizes !== "once" || afterSizes.has(d))) afterSizes.add(g);
    if (g.sizes === "each" && g.finish) afterSizes.add(g);
  }
  return {
    inBackground: all.filter((g) => g.sizes === "background"),
    atLoad: all.filter((g) => g.sizes === "once" && !afterSizes.has(g)),
    atEachSize: all.filter((g) => g.sizes === "each"),
    afterSizes: all.filter((g) => afterSizes.has(g)),
    all,
  };
}

/** The page helpers the scheduled gatherers call. */
export function helpersOf(schedule: Schedule): HelperGroup[] {
  return [...new Set(schedule.all.flatMap((g) => g.helpers ?? []))];
}

export interface GatherOptions {
  /** The sizes visited after load, in order, and how the page gets to each. */
  sizes: readonly CaptureSize[];
  resize(size: CaptureSize): Promise<void>;
  /** The sizes a kind is read at, when known: a gatherer that is gathered only there (onlyAtSizesRead) skips the rest. */
  sizesRead?(kind: string): readonly CaptureSize[] | undefined;
  /** Each gatherer is timed as the phase `<phase> <kind>` (src/phases.ts). */
  phase: string;
  /**
   * "record": a gatherer that fails (the page broke it, or it ran out of something) adds nothing and its kind is
   * in `failures` with why; the others go on, so it errors only the checks that read it. "throw": the first failure
   * ends the gathering.
   */
  onFailure: "record" | "throw";
  /** Whether a failure is the page's end rather than one kind's (the page closed or crashed): thrown, whatever onFailure says. */
  fatal?(): boolean;
}

/**
 * Runs the scheduled gatherers on a page: those in the background begun, those at load, then each size in turn, then
 * what was begun in the background awaited, then those after the sizes.
 */
export async function runGatherers<G extends AnyGatherer<P>, P>(
  schedule: Schedule<G>,
  page: P,
  options: GatherOptions,
): Promise<{ artifacts: ArtifactsOfAll<G>; failures: Record<string, string> }> {
  const artifacts: Record<string, unknown> = {};
  const failures: Record<string, string> = {};
  const attempt = async (kind: string, phase: string, read: () => Promise<object>): Promise<object | undefined> => {
    try {
      return await timed(phase, read);
    } catch (e) {
      if (options.onFailure === "throw" || options.fatal?.()) throw e;
      failures[kind] ??= (e as Error).message.split("\n")[0]!;
      return undefined;
    }
  };
  // Each gatherer finds its dependencies' artifacts among those gathered so far (its declaration types them).
  const gathered = artifacts as never;
  const begun: Array<{ kind: string; rest: Promise<object> }> = [];
  for (const g of schedule.inBackground) {
    if (g.sizes !== "background") continue;
    const started = await attempt(g.kind, `${options.phase} ${g.kind}`, () => g.begin(page, gathered));
    if (!started) continue;
    const rest = timed(
      `${options.phase} ${g.kind} (in the background)`,
      () => (started as { rest: Promise<object> }).rest,
    );
    // Awaited after the sizes; a gathering that ends before then (the page's end) leaves it to settle unobserved.
    rest.catch(() => {});
    begun.push({ kind: g.kind, rest });
  }
  for (const g of schedule.atLoad) {
    if (g.sizes === "once")
      Object.assign(artifacts, await attempt(g.kind, `${options.phase} ${g.kind}`, () => g.gather(page, gathered)));
  }
  for (const size of options.sizes) {
    await options.resize(size);
    for (const g of schedule.atEachSize) {
      if (g.sizes !== "each") continue;
      if (g.onlyAtSizesRead && options.sizesRead?.(g.kind)?.includes(size) === false) continue;
      const reading = await attempt(g.kind, `${options.phase} ${g.kind}`, () => g.gather(page, size, gathered));
      for (const [field, value] of Object.entries(reading ?? {}))
        ((artifacts[field] ??= {}) as Record<string, unknown>)[size] = value;
    }
  }
  for (const { kind, rest } of begun)
    Object.assign(artifacts, await attempt(kind, `${options.phase} ${kind} (awaited)`, () => rest));
  for (const g of schedule.afterSizes) {
    if (g.sizes === "background") continue;
    const [phase, read] =
      g.sizes === "each"
        ? [`${options.phase} ${g.kind} (all sizes)`, () => g.finish!(page, gathered)]
        : [`${options.phase} ${g.kind}`, () => g.gather(page, gathered)];
    Object.assign(artifacts, await attempt(g.kind, phase, read));
  }
  return { artifacts: artifacts as ArtifactsOfAll<G>, failures };
}
