import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Command, Option } from "commander";
import type { RunViewBody } from "../../../../src/contracts/run-view";
import { parseRunFailOn } from "../../../../src/domain/run-policy";
import { action, EXIT, UsageError } from "../../../../src/cli/program";
import { runGithubOutputs, runGithubSummary, writeGithubOutputs } from "../report/github";
import { runExitOf, runJsonReport, runReport, type RunReport } from "../report/run-rows";
import { runTextReport } from "../report/run-text";
import { buildRunRequest, type PageSource, type PlannedPage } from "../run/run-request";
import { parseValidations } from "../run/job-source";
import { CONFIG_FILE, loadSiteConfig, type PageSelection, type SiteConfigFile } from "../run/site-config";
import { submitRun } from "../run/site-run";
import { configPages, discoveredPages, distPages, type DiscoveryRequest } from "../run/site-sources";
import { BASE_URL_OPTION } from "./auth";
import { collect, connection, timeoutMs, undecidedOnFailure } from "./run";

const FORMATS = ["text", "json", "junit", "sarif", "html"] as const;
type Format = (typeof FORMATS)[number];

interface SiteOptions {
  config?: string;
  project?: string;
  branch?: string;
  commit?: string;
  sitemap?: string;
  crawl?: string;
  maxPages?: string;
  maxDepth?: string;
  include?: string[];
  exclude?: string[];
  dist?: string;
  pageUrl?: string;
  set?: string;
  validation?: string[];
  failOn?: string;
  format: Format;
  output?: string;
  report?: string[];
  timeout: string;
  dryRun?: boolean;
  baseUrl?: string;
}

function count(text: string | undefined, flag: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`${flag} ${text}: give a whole number up to ${max}`);
  return n;
}

/** `--report FORMAT=FILE`, repeatable: each report written to its file. */
function reportTargets(opts: SiteOptions): Array<{ format: Format; file: string }> {
  const targets = (opts.report ?? []).map((spec) => {
    const eq = spec.indexOf("=");
    const format = spec.slice(0, eq) as Format;
    if (eq <= 0 || !FORMATS.includes(format) || !spec.slice(eq + 1))
      throw new UsageError(`--report ${spec}: write FORMAT=FILE, FORMAT one of ${FORMATS.join(", ")}`);
    return { format, file: spec.slice(eq + 1) };
  });
  return opts.output ? [...targets, { format: opts.format, file: opts.output }] : targets;
}

/** What pages are checked with unless they name their own: --set and --validation, else the config's defaults. */
function defaultsOf(opts: SiteOptions, config?: SiteConfigFile): PageSelection | undefined {
  if (!opts.set && !opts.validation?.length) return config?.defaults;
  return {
    ...config?.defaults,
    validations: opts.validation?.length ? parseValidations(opts.validation) : undefined,
    validationSetId: opts.set,
  };
}

/**
 * Every page the options and the config name, in this order: the config's pages, the sitemap's, the crawl's,
 * the built folder's. A flag replaces the config's source of the same kind; --include, --exclude and --max-pages
 * read the sources the flags give.
 */
async function gatherPages(
  opts: SiteOptions,
  config: { file: string; value: SiteConfigFile } | undefined,
  server: () => Promise<{ baseUrl: string; key: string }>,
): Promise<PageSource[]> {
  const sources: PageSource[] = config ? configPages(config.value, config.file) : [];
  const patterns = { include: opts.include, exclude: opts.exclude };
  const maxPages = count(opts.maxPages, "--max-pages", 1000);
  const maxDepth = count(opts.maxDepth, "--max-depth", 10);
  const flagged = (fields: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && !(Array.isArray(v) && !v.length)));
  const sitemap: DiscoveryRequest | undefined = opts.sitemap
    ? { sitemap: opts.sitemap, ...flagged({ maxPages, ...patterns }) }
    : config?.value.sitemap
      ? { ...flagged({ ...config.value.sitemap, url: undefined }), sitemap: config.value.sitemap.url }
      : undefined;
  const crawl: DiscoveryRequest | undefined = opts.crawl
    ? { crawl: opts.crawl, ...flagged({ maxPages, maxDepth, ...patterns }) }
    : config?.value.crawl
      ? { ...flagged({ ...config.value.crawl, url: undefined }), crawl: config.value.crawl.url }
      : undefined;
  for (const body of [sitemap, crawl]) if (body) sources.push(...(await discoveredPages(await server(), body)));
  if (opts.dist !== undefined) {
    if (!opts.pageUrl) throw new UsageError("--dist needs --page-url URL: the address the folder is published at");
    sources.push(...distPages(opts.dist, opts.pageUrl, patterns));
  } else if (config?.value.dist) {
    const { dir, pageUrl, include, exclude } = config.value.dist;
    sources.push(...distPages(resolve(dirname(resolve(config.file)), dir), pageUrl, { include, exclude }));
  }
  return sources;
}

async function render(
  format: Format,
  report: RunReport,
  colour: boolean,
  file?: string,
  conn?: { baseUrl: string; key: string },
) {
  if (format === "json") return runJsonReport(report);
  if (format === "junit") return (await import("../report/junit")).runJunitReport(report);
  if (format === "sarif") return (await import("../report/sarif")).runSarifReport(report);
  if (format === "html") {
    const { runHtmlReport, reportImageUrls } = await import("../report/run-html");
    const images =
      file && conn
        ? await (await import("../report/run-images")).reportImages(reportImageUrls(report), conn, file)
        : new Map<string, string>();
    return runHtmlReport(report, images);
  }
  return runTextReport(report, colour);
}

/** Reports the finished (or timed-out) run: stdout, each report file, GitHub outputs and summary; the exit code. */
async function finish(
  run: RunViewBody,
  planned: PlannedPage[],
  opts: SiteOptions,
  conn: { baseUrl: string; key: string },
): Promise<number> {
  const report = runReport(run, planned);
  const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const targets = reportTargets(opts);
  for (const t of targets) writeFileSync(t.file, await render(t.format, report, false, t.file, conn));
  const stdoutFormat = opts.output ? "text" : opts.format;
  process.stdout.write(await render(stdoutFormat === "html" ? "text" : stdoutFormat, report, colour));
  if (process.env.GITHUB_OUTPUT) writeGithubOutputs(process.env.GITHUB_OUTPUT, runGithubOutputs(report));
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, runGithubSummary(report));
  return runExitOf(report.verdict);
}

/** `assay site`: a whole site (a config's pages, a sitemap, a crawl, a built folder) checked as one run. */
export function registerSiteCommand(program: Command): void {
  program
    .command("site")
    .description(
      `check a whole site as one run: the pages of ${CONFIG_FILE} (or --config), a sitemap, a crawl or a built folder, decided together and compared with the project's baseline`,
    )
    .option("--config <file>", `the site's config (default: ${CONFIG_FILE} when there is one)`)
    .option("--project <name>", "the project the run belongs to (default: the config's)")
    .option("--branch <name>", "the branch checked (default: the config's, else GITHUB_HEAD_REF, else GITHUB_REF_NAME)")
    .option("--commit <sha>", "the commit checked (default: GITHUB_SHA)")
    .option("--sitemap <url>", "the pages of this sitemap (the server fetches it; a sitemap index is followed)")
    .option("--crawl <url>", "the pages found by crawling from this page (same origin, robots.txt honoured)")
    .option("--max-pages <n>", "at most this many pages from --sitemap or --crawl (default 50, at most 1000)")
    .option("--max-depth <n>", "--crawl: links followed at most this many clicks deep (default 3)")
    .option("--include <glob>", "only pages whose URL path matches (repeatable): /blog/**", collect)
    .option("--exclude <glob>", "leave out pages whose URL path matches (repeatable)", collect)
    .option("--dist <dir>", "every HTML file of this built folder, as a static_html page; needs --page-url")
    .option("--page-url <url>", "with --dist: the address the folder is published at (index.html is its folder's URL)")
    .option("--set <id>", "the validation set for pages that name no checks of their own")
    .option("--validation <id[:name=value]>", "a check for pages that name none of their own (repeatable)", collect)
    .option(
      "--fail-on <words>",
      "what blocks: fail, a severity name, error (as `assay run`), plus new (only failures new against the baseline) and visual (screenshots that changed)",
    )
    .addOption(new Option("--format <format>", "the report on stdout").choices(FORMATS).default("text"))
    .option("--output <file>", "write the --format report to this file (a text summary still goes to stdout)")
    .option("--report <format=file>", `write a report to a file (repeatable): ${FORMATS.join(", ")}`, collect)
    .option("--timeout <seconds>", "how long to wait for the run (then undecided, exit 2)", "1800")
    .option("--dry-run", "print the run request (POST /api/runs) and send nothing")
    .option(...BASE_URL_OPTION)
    .addHelpText(
      "after",
      "\nExit codes: 0 pass, 1 blocked (the --fail-on threshold was crossed), 2 undecided (interrupted, timed out, refused, unreachable, no key, a bad config, bad usage).",
    )
    .action(
      action((opts: SiteOptions) =>
        undecidedOnFailure(async () => {
          const configFile = opts.config ?? (existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);
          const config = configFile ? { file: configFile, value: loadSiteConfig(configFile) } : undefined;
          const project = opts.project ?? config?.value.project;
          if (!project) throw new UsageError(`name the project: --project NAME, or a config (${CONFIG_FILE})`);
          const failOn = opts.failOn ?? config?.value.failOn ?? "fail";
          try {
            parseRunFailOn(failOn);
          } catch (e) {
            throw new UsageError(`--fail-on: ${(e as Error).message}`);
          }
          const limit = timeoutMs(opts.timeout);
          reportTargets(opts);
          let conn: { baseUrl: string; key: string } | undefined;
          const server = async () => (conn ??= await connection(opts));
          const sources = await gatherPages(opts, config, server);
          const branch =
            opts.branch ??
            config?.value.branch ??
            (process.env.GITHUB_HEAD_REF || process.env.GITHUB_REF_NAME || undefined);
          const commit = opts.commit ?? (process.env.GITHUB_SHA || undefined);
          const plan = buildRunRequest(sources, {
            project,
            ...(branch ? { branch } : {}),
            ...(commit ? { commit } : {}),
            failOn,
            defaults: defaultsOf(opts, config?.value),
            ...(config?.value.ignores ? { ignores: config.value.ignores } : {}),
            ...(config?.value.visual ? { visual: config.value.visual } : {}),
            wait: false,
          });
          for (const d of plan.duplicates)
            console.error(`${d.pageKey}: given twice (again by ${d.from}); checked once`);
          if (opts.dryRun) {
            process.stdout.write(`${JSON.stringify(plan.request, null, 2)}\n`);
            return EXIT.pass;
          }
          const run = await submitRun(await server(), plan.request, {
            timeoutMs: limit,
            ...(config?.value.baseBranch ? { baseBranch: config.value.baseBranch } : {}),
          });
          return finish(run, plan.pages, opts, await server());
        }),
      ),
    );
}
