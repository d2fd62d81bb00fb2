import { Elysia } from "elysia";
import PostalMime from "postal-mime";
import { findEmailClient } from "../../../catalog/email-clients";
import { validationSets } from "../../../catalog/sets";
import { JOB_STATUSES } from "../../../contracts/job";
import { ENGINE_NAMES, type RenderEngine } from "../../../capture/vocabulary";
import { AppError } from "../../../errors/app-error";
import type { JobView } from "../../../services/job-views";
import { callOperation, htmlPage, seeOther, type PageContext } from "../page-kit";
import { dashboardRoute, formRoute, type DashboardRequest } from "./route";
import { JobPageView } from "./job-page-views";
import { JobsListView, type ReceivedEmail } from "./jobs-views";

const PAGE_SIZE = 20;
/** The sets a job started from the dashboard may run, by subject: web-essentials first (the CLI's default). */
const SETS = {
  url: validationSets
    .filter((s) => s.subjectType === "url")
    .sort((a, b) => Number(b.id === "web-essentials") - Number(a.id === "web-essentials"))
    .map(({ id, name }) => ({ id, name })),
  email: validationSets.filter((s) => s.subjectType === "email").map(({ id, name }) => ({ id, name })),
};

/** How much of a message's source the page shows (the download has it whole). */
const SOURCE_LIMIT = 200_000;

/** The links of an email's HTML part, in order, each once: the address and the link's text. */
async function linksOf(html: string): Promise<ReceivedEmail["links"]> {
  const links: ReceivedEmail["links"] = [];
  let current: ReceivedEmail["links"][number] | null = null;
  await new HTMLRewriter()
    .on("a[href]", {
      element(el) {
        current = { href: el.getAttribute("href") ?? "", text: "" };
        links.push(current);
      },
      text(t) {
        if (current) current.text += t.text;
      },
    })
    .transform(new Response(html))
    .text();
  const seen = new Set<string>();
  return links
    .map((l) => ({ href: l.href.trim(), text: l.text.replace(/\s+/g, " ").trim() }))
    .filter((l) => l.href && !seen.has(`${l.href} ${l.text}`) && seen.add(`${l.href} ${l.text}`));
}

/**
 * The job as the page shows it: each screenshot by a share link on this site (signed, short-lived), made as the
 * page is drawn, so images and their large views load wherever the page is opened (another tab, a checker
 * without the session), while the page itself stays behind sign-in. The captures are the job's own: the job
 * was read for the session's organization.
 */
function localJob(job: JobView, share: (key: string) => string): JobView {
  const shared = (url: string) => sharedPath(url, share);
  return {
    ...job,
    results: job.results.map((r) => ({
      ...r,
      ...(r.screenshotUrl ? { screenshotUrl: shared(r.screenshotUrl) } : {}),
      ...(r.captures
        ? {
            captures: r.captures.map((c) => {
              const caption = renderCaption(job.jobId, c.screenshotUrl) ?? engineCaption(c, r.captures!);
              return { ...c, screenshotUrl: shared(c.screenshotUrl), ...(caption ? { caption } : {}) };
            }),
          }
        : {}),
    })),
  };
}

/**
 * An email render's caption from its capture's name (`<jobId>-<client>-<form factor>.jpg`): the mail client and its
 * mode, "Apple Mail, iPhone, dark"; undefined for a webpage's screenshot.
 */
export function renderCaption(jobId: string, url: string): string | undefined {
  const key = new URL(url).pathname.split("/").pop() ?? "";
  const named = key.startsWith(`${jobId}-`) ? /^(.+)-([a-z]+-[a-z]+)\.jpg$/.exec(key.slice(jobId.length + 1)) : null;
  const client = named ? findEmailClient(named[2]!, named[1]!) : undefined;
  if (!client) return undefined;
  const name = client.name.replace(/, (dark|light) mode$/, "").replace(/ \((.+)\)$/, ", $1");
  return `${name}, ${client.colorScheme}`;
}

/** A webpage's screenshot in a result judged in several engines: its size and engine, "mobile-sm, WebKit". */
function engineCaption(
  capture: { viewport: string; engine: string },
  all: Array<{ engine: string }>,
): string | undefined {
  if (all.every((c) => c.engine === "chromium")) return undefined;
  return `${capture.viewport}, ${ENGINE_NAMES[capture.engine as RenderEngine] ?? capture.engine}`;
}

/** A capture's URL as a share link on this site (path and query): loads wherever the page is opened. */
export function sharedPath(url: string, share: (key: string) => string): string {
  const link = new URL(share(new URL(url).pathname.split("/").pop()!));
  return `${link.pathname}${link.search}`;
}

/** The list a request names: a known status (anything else is no filter), the page size, and the page's cursor. */
function filterOf(query: DashboardRequest["query"]) {
  const status = (JOB_STATUSES as readonly string[]).includes(query.status ?? "") ? query.status : undefined;
  return { ...(status ? { status } : {}), ...(query.limit ? { limit: query.limit } : {}) };
}

/** The jobs pages: the organization's jobs (filter, pages), and one job with its verdicts, screenshots and message. */
export function jobPages(ctx: PageContext) {
  /** An email job's message, parsed for its preview, or null while it holds none. */
  async function receivedEmail(req: DashboardRequest, jobId: string): Promise<ReceivedEmail | null> {
    let raw: Response;
    try {
      raw = await callOperation<Response>(ctx, "getJobEmail", req.request, { params: { jobId } });
    } catch (e) {
      if (e instanceof AppError && e.code === "STORAGE_OBJECT_NOT_FOUND") return null;
      throw e;
    }
    const bytes = new Uint8Array(await raw.arrayBuffer());
    const parsed = await PostalMime.parse(bytes);
    const source = new TextDecoder().decode(bytes);
    return {
      downloadUrl: `/api/jobs/${encodeURIComponent(jobId)}/email`,
      bytes: bytes.byteLength,
      headers: parsed.headers.map((h) => ({ name: h.key, value: h.value })),
      html: parsed.html ?? null,
      text: parsed.text ?? null,
      source: source.slice(0, SOURCE_LIMIT),
      sourceCut: source.length > SOURCE_LIMIT,
      attachments: parsed.attachments.map((a) => ({
        filename: a.filename,
        mimeType: a.mimeType,
        bytes: typeof a.content === "string" ? a.content.length : a.content.byteLength,
        inline: a.disposition === "inline",
      })),
      links: parsed.html ? await linksOf(parsed.html) : [],
    };
  }

  /** The list a request names, with the forms that start a job (open when there is none yet, or after a refusal). */
  async function renderList(req: DashboardRequest, message?: string, status = 200) {
    // The filter goes to listJobs as given (it refuses a page size it does not take, as on /api), and with the next page's link.
    const filter = filterOf(req.query);
    const cursor = req.query.cursor || undefined;
    const { jobs, nextCursor } = await callOperation<{ jobs: JobView[]; nextCursor: string | null }>(
      ctx,
      "listJobs",
      req.request,
      { query: { limit: String(PAGE_SIZE), ...filter, ...(cursor ? { cursor } : {}) } },
    );
    const nextPage = nextCursor
      ? `/dashboard/jobs?${new URLSearchParams({ ...filter, cursor: nextCursor })}`
      : undefined;
    const firstPage = Object.keys(filter).length ? `/dashboard/jobs?${new URLSearchParams(filter)}` : "/dashboard/jobs";
    const view = JobsListView({
      shell: { ...req.shell, path: "/dashboard/jobs" },
      jobs,
      statuses: [...JOB_STATUSES],
      status: filter.status,
      limit: filter.limit,
      firstPage: cursor ? firstPage : undefined,
      nextPage,
      message,
      start: {
        csrfToken: req.shell.csrfToken,
        origin: req.shell.origin,
        webSets: SETS.url,
        emailSets: SETS.email,
        open: !!message || (jobs.length === 0 && !cursor && !filter.status),
      },
    });
    return htmlPage(view as string, status);
  }

  return new Elysia()
    .get(
      "/dashboard/jobs",
      dashboardRoute(ctx, (req) => renderList(req)),
    )
    .post(
      "/dashboard/jobs",
      formRoute(
        ctx,
        (req, notice, status) => renderList(req, notice.message, status),
        async (req) => {
          // The form goes to run_job as its fields (the operation maps them to a job body, _csrf the credential).
          const job = await callOperation<JobView>(ctx, "runJob", req.request, { body: req.body });
          return seeOther(`/dashboard/jobs/${encodeURIComponent(job.jobId)}`);
        },
      ),
    )
    .get(
      "/dashboard/jobs/:jobId",
      dashboardRoute(ctx, async (req) => {
        const jobId = req.params.jobId!;
        // One job by id, verbose: an unknown id and another organization's read the same (JOB_NOT_FOUND).
        const { jobs } = await callOperation<{ jobs: JobView[] }>(ctx, "listJobs", req.request, {
          query: { jobId, detail: "verbose" },
        });
        const job = jobs[0]!;
        const email = job.type === "email" ? await receivedEmail(req, job.jobId) : null;
        return htmlPage(
          JobPageView({
            shell: { ...req.shell, path: "/dashboard/jobs" },
            job: localJob(job, (key) => ctx.services.captures.shareUrl(key)),
            email,
            images: req.query.images !== "off",
          }) as string,
        );
      }),
    );
}
