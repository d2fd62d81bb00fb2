/**
 * The slow tests' two sizes. `npm test` keeps the suite within its 15-minute budget on 2 cores by running a sample
 * of each slow test (a day's draw of catalog pages, one Lighthouse page, a big DOM a fifth of the full size);
 * `npm run self-check` sets ASSAY_SELF_CHECK_PAGES=all and runs them in full.
 */
export const SELF_CHECK_IN_FULL = process.env.ASSAY_SELF_CHECK_PAGES === "all";

/** The day's seed of a sampled draw (ASSAY_SELF_CHECK_SEED repeats one). */
export const SELF_CHECK_SEED = process.env.ASSAY_SELF_CHECK_SEED ?? new Date().toISOString().slice(0, 10);

/** `n` of `items`, drawn by the day's seed (every item, in order, when the self-check runs in full). */
export function dailySample<T extends string>(items: readonly T[], n: number): T[] {
  if (SELF_CHECK_IN_FULL) return [...items];
  const rank = (item: string) => Bun.hash(`${SELF_CHECK_SEED} ${item}`);
  return [...items].sort((a, b) => (rank(a) < rank(b) ? -1 : 1)).slice(0, n);
}
