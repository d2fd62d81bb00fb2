import type { Static } from "@sinclair/typebox";
import { crawlPages } from "../discovery/crawl";
import type { Discovered } from "../discovery/found-pages";
import { sitemapPages } from "../discovery/sitemap";
import { DISCOVERY_BOUNDS, type DiscoverPagesBody } from "../contracts/discovery";
import { pathFilter } from "../domain/url-patterns";
import { AppError } from "../errors/app-error";
import type { ServiceContext } from "./context";
import { WindowedLimit } from "./limits";

/**
 * Site discovery: the pages of a site from its sitemap or a crawl, for a run. Every fetch goes through the network
 * guard; each discovery counts against its organization's window (it makes the server fetch another site), is
 * charged nothing and appends nothing.
 */
export class DiscoveryService {
  private readonly perOrganization: WindowedLimit;

  constructor(private readonly ctx: Pick<ServiceContext, "config" | "guard" | "sharedCounts">) {
    const { perOrganization, windowSeconds } = ctx.config.discovery;
    this.perOrganization = new WindowedLimit(perOrganization, windowSeconds, {
      name: "discoveries-per-organization",
      counter: ctx.sharedCounts,
    });
  }

  async discover(customerId: string, body: Static<typeof DiscoverPagesBody>): Promise<Discovered> {
    const given = (["sitemap", "crawl"] as const).filter((f) => body[f] !== undefined);
    if (given.length !== 1 || (body.sitemap !== undefined && body.maxDepth !== undefined))
      throw new AppError(
        "DISCOVERY_ONE_SOURCE",
        given.length === 1
          ? "maxDepth belongs to a crawl; a sitemap lists its pages at any depth."
          : `Give exactly one of sitemap or crawl${given.length ? `, not both` : ""}.`,
        { given: [...given, ...(body.maxDepth !== undefined ? ["maxDepth"] : [])] },
      );
    const { perOrganization, windowSeconds } = this.ctx.config.discovery;
    await this.perOrganization.spend(
      customerId,
      (retryAfterSeconds) =>
        new AppError(
          "DISCOVERY_RATE_LIMITED",
          `This organization asked for ${perOrganization} site discoveries within ${windowSeconds} s; try again in ${retryAfterSeconds} s.`,
          { retryAfterSeconds, limit: perOrganization, windowSeconds },
        ),
    );
    const signal = AbortSignal.timeout((body.timeLimitSeconds ?? DISCOVERY_BOUNDS.timeLimitSeconds.default) * 1000);
    const common = {
      maxPages: body.maxPages ?? DISCOVERY_BOUNDS.maxPages.default,
      listed: pathFilter({ include: body.include, exclude: body.exclude }),
      signal,
    };
    if (body.sitemap !== undefined) return sitemapPages(this.ctx.guard, body.sitemap, common);
    return crawlPages(this.ctx.guard, body.crawl!, {
      ...common,
      maxDepth: body.maxDepth ?? DISCOVERY_BOUNDS.maxDepth.default,
    });
  }
}
