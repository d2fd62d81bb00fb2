import { Elysia } from "elysia";
import { AppError } from "../../../errors/app-error";
import { catalogBaseUrl } from "../../../config";
import { examplesOf, examplesRecordedOn } from "../../../catalog/examples";
import { clientRendersRecordedOn } from "../../../catalog/email-client-examples";
import { renderTargets } from "../../../catalog/email-clients";
import { findValidation } from "../../../catalog/registry";
import { nearestSetIds, nearestValidationIds, typedId } from "../../../catalog/suggestions";
import { VIEWPORTS, type CaptureSize } from "../../../capture/vocabulary";
import { callOperation, htmlPage, type PageContext } from "../page-kit";
import {
  CustomPage,
  IndexPage,
  NotFoundPage,
  SetPage,
  StandardPage,
  type CheckRow,
  type IndexFilter,
  type NearestLink,
  type Parameter,
  type SetLink,
  type Snippets,
} from "./catalog-views";
import { emailClientPages, emailClientPaths } from "./email-client-pages";

/**
 * The public catalog site: /validations (every check, filtered by subject and kind, searched with ?q=), a standard
 * page per check, a custom page per check with parameters, a page per set, the mail-client pages
 * (email-client-pages.ts), /sitemap.xml and /robots.txt. Everything
 * is read through the catalog operations (the same records as /api/validations) plus the embedded examples; every
 * link is absolute on ASSAY_CATALOG_BASE_URL. No session: the pages are public and may be cached for five minutes.
 *
 * A page that does not exist (an unknown check or set, the custom page of a check without parameters) is an HTML
 * 404 page: the site is read by browsers and crawlers, which get a page with a way back rather than an error body.
 *
 * lastmod (the sitemap, dateModified in the structured data) is the day the examples were recorded
 * (src/catalog/examples.json's recordedOn): a stable date that moves when `npm run examples` records the catalog again.
 */

const PUBLIC = { "cache-control": "public, max-age=300" };

interface ValidationRecord {
  id: string;
  slug: string;
  name: string;
  summary: string;
  subjectType: "url" | "email";
  category: string;
  severity: string;
  executionKind: "functional" | "visual";
  requiresConfiguration: boolean;
  price: { credits: number };
  parameters: Parameter[];
}

interface SetRecord {
  id: string;
  name: string;
  description: string;
  subjectType: "url" | "email";
  validationIds: string[];
  blockingValidationIds: string[];
}

/** Text for a single-quoted shell word. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The same job for HTTP, MCP and the CLI. */
function snippetsFor(
  apiBase: string,
  job: { type: string; validations: unknown[] },
  check: ValidationRecord,
): Snippets {
  const entry = job.validations[0] as string | { id: string; parameters: Record<string, unknown> };
  const flags =
    typeof entry === "string"
      ? [`--validation ${entry}`]
      : Object.entries(entry.parameters).map(
          ([name, value]) =>
            `--validation ${shellQuote(`${entry.id}:${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)}`,
        );
  const subject = check.subjectType === "url" ? "--url https://example.com/" : "--email message.eml";
  return {
    curl: [
      `curl -X POST ${apiBase}/api/jobs`,
      `  -H "authorization: Bearer $ASSAY_API_KEY"`,
      `  -H "content-type: application/json"`,
      `  -d ${shellQuote(JSON.stringify(job))}`,
    ].join(" \\\n"),
    mcp: JSON.stringify(job, null, 2),
    cli: `assay run ${subject} ${flags.join(" ")}`,
  };
}

/** What a check reads and where it renders, in words. */
function rendersOf(id: string): string[] {
  const m = findValidation(id)!;
  if (m.meta.subjectType === "url") {
    return m.meta.capture.offered.map(
      (size: CaptureSize) =>
        `${size} (${VIEWPORTS[size].width}×${VIEWPORTS[size].height})${m.meta.capture.standard.includes(size) ? ", captured by default" : ""}`,
    );
  }
  return renderTargets(m).map((t) => `${t.client.name} at ${t.formFactor}`);
}

export function catalogPages(ctx: PageContext) {
  const base = () => catalogBaseUrl(ctx.services.config);
  const read = async () => {
    const request = new Request(`${ctx.services.config.publicBaseUrl}/api/validations`);
    const [{ validations }, { validationSets }] = await Promise.all([
      callOperation<{ validations: ValidationRecord[] }>(ctx, "listValidations", request, {
        query: { include: "parameters" },
      }),
      callOperation<{ validationSets: SetRecord[] }>(ctx, "listValidationSets", request),
    ]);
    const rows: CheckRow[] = validations.map((v) => ({
      id: v.id,
      slug: v.slug,
      name: v.name,
      summary: v.summary,
      subjectType: v.subjectType,
      category: v.category,
      kind: v.executionKind,
      credits: v.price.credits,
      severity: v.severity,
      sets: validationSets.filter((s) => s.validationIds.includes(v.id)).map((s) => ({ id: s.id, name: s.name })),
    }));
    const sets: SetLink[] = validationSets.map((s) => ({ id: s.id, name: s.name, subjectType: s.subjectType }));
    return { validations, validationSets, rows, sets };
  };
  /** The 404 page, with links to the nearest checks or sets when the path names one with a typo. */
  const notFound = async (request: Request, message: string, nearest: NearestLink[] = []) =>
    htmlPage(
      NotFoundPage({
        base: base(),
        sets: (await read()).sets,
        path: new URL(request.url).pathname,
        message,
        nearest,
      }) as string,
      404,
      PUBLIC,
    );
  const nearestChecks = (given: string): NearestLink[] =>
    nearestValidationIds(given).map((id) => {
      const m = findValidation(id)!;
      return { href: `${base()}/validations/${m.meta.slug}/standard`, name: m.meta.name, id };
    });
  const nearestSets = (given: string): NearestLink[] =>
    nearestSetIds(given).map((id) => ({ href: `${base()}/validation-sets/${id}`, name: id, id }));
  /** A check by slug, or the 404 page's message. */
  const detailOf = async (request: Request, slug: string) => {
    try {
      return await callOperation(ctx, "getValidation", request, { params: { idOrSlug: slug } });
    } catch (e) {
      if (e instanceof AppError && e.code === "VALIDATION_NOT_FOUND") return null;
      throw e;
    }
  };

  return new Elysia()
    .use(
      emailClientPages({
        base,
        sets: async () => (await read()).sets,
        notFound: (request, message) => notFound(request, message),
      }),
    )
    .get("/validations", async ({ request, query }) => {
      const { rows, sets } = await read();
      const filter: IndexFilter = {
        ...(query.subject === "url" || query.subject === "email" ? { subject: query.subject } : {}),
        ...(query.kind === "functional" || query.kind === "visual" ? { kind: query.kind } : {}),
        ...(typeof query.q === "string" && query.q.trim() ? { q: query.q.trim().slice(0, 500) } : {}),
      };
      let shown = rows.filter(
        (r) => (!filter.subject || r.subjectType === filter.subject) && (!filter.kind || r.kind === filter.kind),
      );
      if (filter.q) {
        // The operation (the MCP tool search_validations, which has no route) reads its arguments as a JSON body.
        const asJson = new Request(request.url, { method: "POST", headers: { "content-type": "application/json" } });
        const body = JSON.stringify({ query: filter.q, limit: 50 });
        const { matches } = await callOperation<{ matches: Array<{ id: string }> }>(ctx, "searchValidations", asJson, {
          body,
        });
        const found = new Set(matches.map((m) => m.id));
        shown = shown.filter((r) => found.has(r.id));
      }
      return htmlPage(
        IndexPage({ base: base(), rows: shown, total: rows.length, filter, sets }) as string,
        200,
        PUBLIC,
      );
    })
    .get("/validations/:slug", async ({ request, params }) => {
      const m = findValidation(params.slug) ?? findValidation(typedId(params.slug));
      if (!m)
        return notFound(
          request,
          `No check has the id or slug ${JSON.stringify(params.slug)}.`,
          nearestChecks(params.slug),
        );
      return new Response(null, {
        status: 308,
        headers: { location: `${base()}/validations/${m.meta.slug}/standard`, ...PUBLIC },
      });
    })
    .get("/validations/:slug/standard", async ({ request, params }) => {
      const detail = await detailOf(request, params.slug);
      if (!detail)
        return notFound(
          request,
          `No check has the id or slug ${JSON.stringify(params.slug)}.`,
          nearestChecks(params.slug),
        );
      const { validations, sets } = await read();
      const record = validations.find((v) => v.id === detail.id)!;
      const m = findValidation(detail.id)!;
      return htmlPage(
        StandardPage({
          base: base(),
          sets,
          check: {
            ...record,
            kind: record.executionKind,
            credits: record.price.credits,
            judgment: detail.judgment,
            references: detail.references,
            sets: sets.filter((s) => detail.validationSets.includes(s.id)),
          },
          // The artifacts it asks the capture for; an email check asking for none reads the parsed message alone.
          reads: m.meta.needs.length ? m.meta.needs : ["the parsed message (headers and parts)"],
          renders: rendersOf(detail.id),
          examples: examplesOf(detail.id),
          snippets: snippetsFor(ctx.services.config.publicBaseUrl, detail.agentJobSnippet, record),
          lastModified: examplesRecordedOn,
        }) as string,
        200,
        PUBLIC,
      );
    })
    .get("/validations/:slug/custom", async ({ request, params }) => {
      const detail = await detailOf(request, params.slug);
      if (!detail)
        return notFound(
          request,
          `No check has the id or slug ${JSON.stringify(params.slug)}.`,
          nearestChecks(params.slug),
        );
      const record = (await read()).validations.find((v) => v.id === detail.id)!;
      if (!record.parameters.length)
        return notFound(request, `${record.name} has no custom parameters: it runs the same way in every job.`);
      // Each parameter's job sets it, plus the parameters that have no default (a job without them skips the check).
      const required = Object.fromEntries(
        record.parameters.filter((p) => p.default === undefined).map((p) => [p.name, p.example]),
      );
      const subject =
        record.subjectType === "url"
          ? { type: "url", url: "https://example.com/" }
          : { type: "email", subject: "Your subject line" };
      const jobs = Object.fromEntries(
        record.parameters.map((p) => [
          p.name,
          JSON.stringify(
            { ...subject, validations: [{ id: record.id, parameters: { ...required, [p.name]: p.example } }] },
            null,
            2,
          ),
        ]),
      );
      return htmlPage(
        CustomPage({
          base: base(),
          sets: (await read()).sets,
          check: record,
          jobs,
          lastModified: examplesRecordedOn,
        }) as string,
        200,
        PUBLIC,
      );
    })
    .get("/validation-sets/:setId", async ({ request, params }) => {
      const { rows, sets, validationSets } = await read();
      const set = validationSets.find((s) => s.id === params.setId);
      if (!set)
        return notFound(
          request,
          `No validation set has the id ${JSON.stringify(params.setId)}.`,
          nearestSets(params.setId),
        );
      const setRows = set.validationIds.map((id) => rows.find((r) => r.id === id)!);
      const page = SetPage({
        base: base(),
        sets,
        set: { ...set, blocking: set.blockingValidationIds },
        rows: setRows,
        lastModified: examplesRecordedOn,
      });
      return htmlPage(page as string, 200, PUBLIC);
    })
    .get("/sitemap.xml", async () => {
      const { validations, validationSets } = await read();
      const checkPaths = [
        "/validations",
        ...validations.flatMap((v) => [
          `/validations/${v.slug}/standard`,
          ...(v.parameters.length ? [`/validations/${v.slug}/custom`] : []),
        ]),
        ...validationSets.map((s) => `/validation-sets/${s.id}`),
      ];
      const paths = [
        ...checkPaths.map((p) => [p, examplesRecordedOn] as const),
        ...emailClientPaths().map((p) => [p, clientRendersRecordedOn] as const),
      ];
      const urls = paths.map(
        ([p, lastmod]) => `  <url>\n    <loc>${base()}${p}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </url>`,
      );
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
      return new Response(xml, { headers: { "content-type": "application/xml; charset=utf-8", ...PUBLIC } });
    })
    .get(
      "/robots.txt",
      () =>
        new Response(`User-agent: *\nDisallow: /api/\nDisallow: /dashboard\nSitemap: ${base()}/sitemap.xml\n`, {
          headers: { "content-type": "text/plain; charset=utf-8", ...PUBLIC },
        }),
    );
}
