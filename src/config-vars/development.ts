import type { VarSpec } from "./declaration";

/** The section "Development: benchmarks, accuracy and the self-check" (CONFIG_SECTIONS.development), in the order docs/configuration.md lists it. */
export const DEVELOPMENT_VARS = {
  ASSAY_CORPUS_DIR: {
    section: "development",
    kind: "path",
    defaultText: "`../shared/corpus`, beside the repository",
    doc: "The synthetic corpus `npm run accuracy` scores (skipped when absent).",
  },
  ASSAY_ACCURACY_CORPORA: {
    section: "development",
    kind: "list",
    default: "synthetic,real-world",
    doc: "Which corpora `npm run accuracy` scores (`real-world`, `synthetic`).",
  },
  ASSAY_ACCURACY_SUBJECTS: {
    section: "development",
    kind: "list",
    default: "web,email",
    doc: "Which subjects `npm run accuracy` scores (`web`, `email`).",
  },
  ASSAY_ACCURACY_CASES: {
    section: "development",
    kind: "list",
    defaultText: "every case",
    doc: "Narrows `npm run accuracy` to these case ids.",
  },
  ASSAY_ACT_WIDTH: {
    section: "development",
    kind: "integer",
    min: 1,
    default: 2,
    doc: "How many W3C ACT test cases `npm run act` runs at a time.",
  },
  ASSAY_SELF_CHECK_SEED: {
    section: "development",
    kind: "text",
    defaultText: "today's date",
    doc: "The catalog's self-check (`test/catalog/self-check.test.ts`) runs a sample of check pages drawn from this seed; give a printed seed to repeat a draw.",
  },
  ASSAY_SELF_CHECK_PAGES: {
    section: "development",
    kind: "text",
    doc: "`all`: the slow tests run in full: the self-check on every catalog page, Lighthouse on each of its three pages, the hostile pages' DOM at 200,000 nodes (what `npm run self-check` sets; `npm test` runs a sample of each).",
  },
  BENCH_SOAK_SECONDS: {
    section: "development",
    kind: "integer",
    default: 60,
    doc: "How long `npm run bench`'s soak (and the remote-browsers bench) runs.",
  },
  BENCH_CLUSTER_RUN_PAGES: {
    section: "development",
    kind: "integer",
    doc: "Pages of the full-size site run on two nodes (PostgreSQL, remote browser workers) that `npm run bench` adds, up to 1,000; unset, the bench leaves it out (`bun bench/cluster-run-bench.ts` runs it alone, at 1,000 pages).",
  },
  BENCH_ENGINE_ROUNDS: {
    section: "development",
    kind: "integer",
    default: 8,
    doc: "Jobs of each kind `npm run bench`'s engine figures time (the layout checks in Chromium alone, then with WebKit, then with Gecko).",
  },
  BENCH_RUNS: {
    section: "development",
    kind: "integer",
    default: 30,
    doc: "Jobs `bench/image-text-bench.ts` times (at least 5): a lone static_html web-essentials job beside the bare harness, with its OCR profiled.",
  },
  BENCH_WEBKIT_RENDER_PAIRS: {
    section: "development",
    kind: "integer",
    default: 8,
    doc: "WebKit renders of each kind `bench/apple-mail-bench.ts` times on one engine: cold (a fresh session) and warm (a sealed render on the warm session), in turn.",
  },
  BENCH_APPLE_MAIL_BATCHES: {
    section: "development",
    kind: "integer",
    default: 4,
    doc: "Pairs of batches (four email jobs at a time) `bench/apple-mail-bench.ts` times: Apple Mail in WebKit, then in Chromium.",
  },
  BENCH_CLI_ROUNDS: {
    section: "development",
    kind: "integer",
    default: 7,
    doc: "Rounds of `bench/cli-run-bench.ts` (CLI against bare HTTP).",
  },
  BENCH_SITE_RUN_ROUNDS: {
    section: "development",
    kind: "integer",
    default: 3,
    doc: "Rounds of `bench/site-run-bench.ts` (a 50-page site as one run against 50 bare jobs).",
  },
} as const satisfies Record<string, VarSpec & { section: "development" }>;
