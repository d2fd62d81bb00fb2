import type { BrowserContext, Page, Route } from "playwright-core";
import type { BrowserPool } from "./browser-pool";
import type { NetworkGuard } from "./network-guard";
import type { DomSnapshot, WebArtifacts } from "./artifacts";
import { snapshotDom } from "./gather-dom";
import type { ArtifactKind, CaptureSize } from "../validations/types";

export const VIEWPORTS: Record<CaptureSize, { width: number; height: number; mobile: boolean }> = {
  "mobile-sm": { width: 375, height: 667, mobile: true },
  "tablet-portrait": { width: 768, height: 1024, mobile: false },
  "desktop-md": { width: 1280, height: 800, mobile: false },
};

export interface CaptureLimits {
  navigationTimeoutMs: number;
}

export const DEFAULT_LIMITS: CaptureLimits = { navigationTimeoutMs: 15_000 };

export type WebSubject = { type: "url"; url: string } | { type: "static_html"; html: string; baseUrl: string };

export interface CapturePlan {
  viewports: CaptureSize[];
  needs: Set<ArtifactKind>;
}

export type CaptureOutcome = { ok: true; artifacts: WebArtifacts } | { ok: false; interruption: string };

/** Renders a web subject in a fresh browser context and gathers, once, what the selected checks read. */
export class WebCaptureEngine {
  constructor(
    private readonly pool: BrowserPool,
    private readonly guard: NetworkGuard,
    private readonly limits: CaptureLimits = DEFAULT_LIMITS,
  ) {}

  capture(subject: WebSubject, plan: CapturePlan): Promise<CaptureOutcome> {
    return this.pool.use(async (browser) => {
      const first = plan.viewports[0] ?? "desktop-md";
      const context = await browser.newContext({
        viewport: { width: VIEWPORTS[first].width, height: VIEWPORTS[first].height },
        serviceWorkers: "block",
        acceptDownloads: false,
      });
      try {
        return await this.captureIn(context, subject, plan);
      } finally {
        await context.close().catch(() => {});
      }
    });
  }

  private async captureIn(context: BrowserContext, subject: WebSubject, plan: CapturePlan): Promise<CaptureOutcome> {
    const page = await context.newPage();
    page.on("dialog", (d) => void d.dismiss().catch(() => {}));
    page.on("popup", (p) => void p.close().catch(() => {}));
    const target = new URL(subject.type === "url" ? subject.url : subject.baseUrl);
    target.hash = "";
    let documentServed = false;
    await page.route("**/*", (route) => this.route(route, page, subject, target.href, () => {
      if (documentServed) return false;
      documentServed = true;
      return true;
    }));
    let response;
    try {
      response = await page.goto(target.href, { waitUntil: "load", timeout: this.limits.navigationTimeoutMs });
    } catch (e) {
      return { ok: false, interruption: `The page did not load: ${firstLine((e as Error).message)}` };
    }
    if (subject.type === "url" && response && response.status() >= 400) {
      return { ok: false, interruption: `The page answered HTTP ${response.status()} ${response.statusText()}`.trim() };
    }
    const dom: Partial<Record<CaptureSize, DomSnapshot>> = {};
    if (plan.needs.has("dom")) {
      for (const size of plan.viewports) {
        const v = VIEWPORTS[size];
        await page.setViewportSize({ width: v.width, height: v.height });
        dom[size] = await page.evaluate(snapshotDom);
      }
    }
    return { ok: true, artifacts: { finalUrl: page.url(), dom } };
  }

  private async route(route: Route, page: Page, subject: WebSubject, documentUrl: string, claimDocument: () => boolean) {
    const request = route.request();
    if (
      subject.type === "static_html" &&
      request.isNavigationRequest() &&
      request.frame() === page.mainFrame() &&
      request.url() === documentUrl &&
      claimDocument()
    ) {
      return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: subject.html });
    }
    const verdict = await this.guard.check(request.url());
    if (!verdict.allowed) return route.abort("blockedbyclient").catch(() => {});
    return route.continue().catch(() => {});
  }
}

const firstLine = (s: string) => s.split("\n")[0]!.replace(/^page\.goto: /, "");
