import { converter } from "culori";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import type { BrowserPool } from "../browser-pool";
import type { AxeSummary, LayoutSnapshot, Screenshot } from "../artifact-shapes";
import { helpersScript, PAGE_HELPERS_KEY } from "../page-helpers";
import { helpersOf, runGatherers, scheduleGatherers } from "../gatherers/run";
import {
  DARK_METHODS,
  type CaptureSize,
  type DarkRendering,
  type EmailClient,
  type RenderEngine,
  type RenderTarget,
} from "../vocabulary";
import { applyConditionalComments, clipHtml, profileOf, sanitizerRulesFor } from "./profiles";
import { sanitizeInPage } from "./sanitize-in-page";
import { SANITIZE_HELPERS } from "./sanitize-markup";
import { appleDarkDecisionInPage, applyWordLimitsInPage, invertColours } from "./client-rendering";
import { changesOf } from "./change-marks";
import { axeOnRender } from "./render-axe";
import { RENDER_GATHERERS, withLightContrast, type EmailRenderSnapshot } from "./gather-render";
import { snapshotTextColours } from "./snapshot-email-render";
import { CHANGE_MARK, RECORD_LIMITS, WORD_LIMITS_MARK, type RenderChange } from "./sanitize-record";
import { timed } from "../../phases";

/** One message rendered in one emulated client at one form factor. */
export interface EmailRender {
  client: EmailClient;
  formFactor: CaptureSize;
  dark: boolean;
  /** Dark renders: how the client darkened the message (forced inversion, or its own prefers-color-scheme styles). */
  darkMode: DarkRendering | null;
  /** Capture key suffix: `<clientId>-<formFactor>`. */
  label: string;
  screenshot: Screenshot;
  layout: LayoutSnapshot;
  snapshot: EmailRenderSnapshot;
  /** What the client's sanitizer changed, one line per kind with counts, and how dark mode was applied. */
  notes: string[];
  /** Each change the client's profile made, with the rule that caused it, its source and where it is in the message. */
  changes: RenderChange[];
  /** Distinct changes past the first MAX_CHANGES, counted only. */
  changesOmitted: number;
  /**
   * The changes that apply to each element the render's snapshot and layout name (by that selector): indexes into
   * `changes` of those recorded on the element itself or on an ancestor. Elements no change touched are left out.
   */
  changesAt: Record<string, number[]>;
  /** Requests the message made, all refused: remote images, fonts, stylesheets. */
  blocked: string[];
  /** The engine its screenshot and layout come from; `engineNote` says why not the client's own (`client.renderIn`). */
  engine: RenderEngine;
  engineNote?: string;
  /**
   * axe-core on the rendered document (the client's sanitized message, its CSS, dark mode applied), when a check reads
   * it ("render-axe", render-axe.ts).
   */
  axe?: AxeSummary;
  /** A client rendered in another engine: the final document (sanitized, the client's CSS, dark decided) to lay out there. */
  document?: string;
}

/** What a render reads beyond its gatherers, when a check asks for it. */
export interface RenderOptions {
  /** Run axe-core on the rendered document (EmailRender.axe). */
  axe?: boolean;
}

export type RenderOutcome =
  | { ok: true; render: EmailRender }
  | { ok: false; client: EmailClient; formFactor: CaptureSize; label: string; error: string };

export interface EmailRenderLimits {
  /** One render, from a fresh context to its screenshot. */
  timeoutMs: number;
  screenshotMaxHeight: number;
}

export const DEFAULT_RENDER_LIMITS: EmailRenderLimits = { timeoutMs: 20_000, screenshotMaxHeight: 8_000 };

const toRgb = converter("rgb");
/** A profile's canvas colour (hex, from the profile table) as 0-255 channels. */
const rgb = (hex: string): [number, number, number] => {
  const { r, g, b } = toRgb(hex)!;
  return [Math.round(r * 255), Math.round(g * 255), Math.round(b * 255)];
};
/** Every render gathers all of the render's artifacts. */
const RENDER_SCHEDULE = scheduleGatherers(
  RENDER_GATHERERS,
  RENDER_GATHERERS.map((g) => g.kind),
);
/**
 * The sanitizer's helpers and the render gatherers' at once, written once: installed in the blank page before the
 * sanitizer runs, they stay through the render's setContent (the page's global object is kept), so one evaluate a
 * render installs both (none on a lane's later renders, which find them there).
 */
const RENDER_HELPERS_SCRIPT = helpersScript([SANITIZE_HELPERS, ...helpersOf(RENDER_SCHEDULE)]);
/**
 * The colour scheme each lane page was last set to by a render: a render on a page its previous one left light
 * skips the call (the HTML read, which sets light itself, only ever leaves a page light).
 */
const schemes = new WeakMap<Page, "light" | "dark">();
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Renders a received message as an emulated mail client shows it: the client's sanitizer (profiles.ts) is
 * applied to the HTML in a blank page, the result is laid out at the client's reading-pane width in a fresh
 * Chromium context with JavaScript off and no network (every request, remote images included, is refused
 * and recorded: images render as their alt text or an empty box), dark mode is applied the way the client
 * applies it, and the layout, the colours and a full-page screenshot are read.
 */
export class EmailRenderEngine {
  constructor(
    private readonly pool: BrowserPool,
    private readonly limits: EmailRenderLimits = DEFAULT_RENDER_LIMITS,
  ) {}

  /** One render, on `lane` when given (else on a lane of its own); a failure is an outcome naming it, never a throw. */
  async render(
    message: { html: string | null; text: string | null },
    target: RenderTarget,
    lane?: RenderLane,
    options: RenderOptions = {},
  ): Promise<RenderOutcome> {
    const { client, formFactor } = target;
    const label = `${client.id}-${formFactor}`;
    if (!lane) return withRenderLane(this.pool, (own) => this.render(message, target, own, options));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overtime = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the render took longer than ${this.limits.timeoutMs / 1000} s`)),
        this.limits.timeoutMs,
      );
    });
    try {
      // Opening the lane's page (a renderer process) counts against the render's time, as the render itself does.
      const render = await Promise.race([
        lane.page().then((page) => this.renderIn(page, lane, message, client, formFactor, label, options)),
        overtime,
      ]);
      return { ok: true as const, render };
    } catch (e) {
      // Whatever the failed render left in the page (a load still running, a crashed renderer) goes with it.
      lane.discard();
      return { ok: false, client, formFactor, label, error: (e as Error).message.split("\n")[0]! };
    } finally {
      clearTimeout(timer);
    }
  }

  private async renderIn(
    { page, cdp }: { page: Page; cdp: CDPSession },
    lane: RenderLane,
    message: { html: string | null; text: string | null },
    client: EmailClient,
    formFactor: CaptureSize,
    label: string,
    options: RenderOptions,
  ): Promise<EmailRender> {
    const profile = profileOf(client);
    const dark = client.colorScheme === "dark";
    const blocked = lane.startRender();
    await timed("render viewport", async () => {
      // A lane's previous render at the same size left the viewport as this one needs it.
      const size = page.viewportSize();
      if (size?.width !== client.width || size.height !== client.height)
        await page.setViewportSize({ width: client.width, height: client.height });
      if (schemes.get(page) !== "light") await page.emulateMedia({ colorScheme: "light" });
      schemes.set(page, "light");
    });

    const notes: string[] = [];
    const changes: RenderChange[] = [];
    let html =
      message.html ??
      `<!DOCTYPE html><html><body><div style="white-space: pre-wrap">${escapeHtml(message.text ?? "")}</div></body></html>`;
    if (!message.html) notes.push("no HTML part: the text/plain part is shown");
    if (profile.clipBytes !== null) {
      const clip = clipHtml(html, profile.clipBytes);
      html = clip.html;
      if (clip.clipped) {
        notes.push(`clipped after ${Math.round(profile.clipBytes / 1024)} KB of HTML ("[Message clipped]")`);
        changes.push({
          action: "clipped",
          target: `the HTML after its first ${Math.round(profile.clipBytes / 1024)} KB, behind "[Message clipped] View entire message"`,
          rule: `Gmail shows the first ${Math.round(profile.clipBytes / 1024)} KB of a message's HTML and links to the rest`,
          source: "observed",
          count: 1,
        });
      }
    }
    if (profile.conditionalComments === "mso") {
      const cc = applyConditionalComments(html);
      html = cc.html;
      if (cc.applied) {
        notes.push(`${cc.applied} conditional comment block(s) evaluated for Outlook (mso 16)`);
        changes.push({
          action: "conditional-comments",
          target: "<!--[if mso]> … <![endif]--> blocks",
          rule: "Word reads conditional comments for mso (version 16): [if mso] blocks are shown, [if !mso] blocks dropped",
          source: "word-engine",
          count: cc.applied,
        });
      }
    }
    const sanitized = await timed("render sanitize", async () => {
      await page.evaluate(RENDER_HELPERS_SCRIPT);
      return page.evaluate(sanitizeInPage, {
        html,
        source: message.html ?? html,
        rules: sanitizerRulesFor(client),
        limits: RECORD_LIMITS,
        dark,
        helpersKey: PAGE_HELPERS_KEY,
      });
    });
    notes.push(...sanitized.notes);
    // An element's marks name the sanitizer's changes by their order there; here they follow what came before.
    const marked = new Map(sanitized.changes.map((_, i) => [String(i), changes.length + i]));
    changes.push(...sanitized.changes);

    // The client's defaults: its font and text colour for unstyled text, its canvas behind the message.
    // Everything is laid out light first: Apple Mail decides from the message alone (below) whether to show it
    // dark, so its dark style cannot count as the message's declaration; the inverting clients invert the light rendering.
    let scheme = profile.light;
    // In dark mode the root's color-scheme is dark too, so unstyled links and controls take their dark colours.
    const clientCss = (s: { text: string }) =>
      `:where(html) { color: ${s.text}; font-family: ${profile.fontFamily}; font-size: ${profile.fontSize};${s === profile.dark ? " color-scheme: dark;" : ""} }`;
    const withDefaults = (doc: string, s: { text: string }) =>
      doc.replace(/<head>/i, `<head><style id="assay-client">${clientCss(s)}</style>`);
    const setCanvas = (hex: string) => {
      const [r, g, b] = rgb(hex);
      return cdp.send("Emulation.setDefaultBackgroundColorOverride", { color: { r, g, b, a: 1 } });
    };
    await timed("render load", async () => {
      await setCanvas(scheme.canvas);
      await page.setContent(withDefaults(sanitized.html, scheme), {
        waitUntil: "load",
        timeout: this.limits.timeoutMs,
      });
    });

    // The render's artifacts, as a webpage's: its gatherers (gather-render.ts, helpers installed with the sanitizer's),
    // every one, the first failure the render's.
    // A dark render reads its text in light mode first, so a check can tell text that is unreadable in both from
    // text that dark mode made unreadable; then the reader's device turns dark.
    const lightText = dark
      ? await page.evaluate(snapshotTextColours, { helpersKey: PAGE_HELPERS_KEY, canvas: rgb(scheme.canvas) })
      : null;
    if (dark) {
      await page.emulateMedia({ colorScheme: "dark" });
      schemes.set(page, "dark");
    }

    if (profile.rules.word) {
      const n = await page.evaluate(applyWordLimitsInPage, { attribute: CHANGE_MARK, value: WORD_LIMITS_MARK });
      if (n) {
        marked.set(WORD_LIMITS_MARK, changes.length);
        notes.push(`Word engine limits applied to ${n} element(s) styled from style blocks`);
        changes.push({
          action: "layout-limited",
          target: "width, height, max-width and padding set from style blocks",
          rule: "Word engine: no width or height on div, p or span, max-width only on tables, padding only on table cells (caniemail css-width, css-max-width and css-padding notes)",
          source: "word-engine",
          count: n,
        });
      }
    }
    let darkMode: DarkRendering | null = null;
    if (dark) {
      const method = DARK_METHODS[client.darkMode];
      if (method.method === "prefers-color-scheme") {
        const decision = await page.evaluate(appleDarkDecisionInPage);
        const darkened = decision.declared || !decision.coloured;
        darkMode = {
          ...method,
          darkened,
          how: decision.declared
            ? "the message declares dark support (color-scheme), so it gets the dark canvas, light default text and its own prefers-color-scheme styles"
            : !decision.coloured
              ? "the message sets no colours, so the client darkens it (dark canvas, light default text)"
              : "the message sets its own colours and does not declare dark support, so it is shown light; its prefers-color-scheme styles still apply",
        };
        if (darkened) {
          scheme = profile.dark;
          await setCanvas(scheme.canvas);
          await page.evaluate((css) => {
            const style = document.getElementById("assay-client");
            if (style) style.textContent = css;
          }, clientCss(scheme));
        }
      } else if (method.method === "forced-inversion") {
        const n = await invertColours(page, client.darkMode as "partial-invert" | "full-invert");
        scheme = profile.dark;
        await setCanvas(scheme.canvas);
        darkMode = {
          ...method,
          darkened: true,
          how:
            method.extent === "full"
              ? `the client inverts the lightness of every text, background and border colour (${n} element(s) recoloured), whatever the message's styles say`
              : `the client darkens light backgrounds and lightens dark text (${n} element(s) recoloured); the message's prefers-color-scheme styles apply first where the client keeps them`,
        };
      } else {
        darkMode = { ...method, darkened: false, how: "the client shows the message as sent" };
      }
      notes.push(`dark mode (${method.method}${"extent" in method ? `, ${method.extent}` : ""}): ${darkMode.how}`);
    }
    const rendered = {
      page,
      cdp,
      formFactor,
      canvas: rgb(scheme.canvas),
      screenshotMaxHeight: this.limits.screenshotMaxHeight,
    };
    const { artifacts } = await runGatherers(RENDER_SCHEDULE, rendered, {
      sizes: [],
      resize: async () => {},
      phase: "render",
      onFailure: "throw",
    });
    const { layout, screenshot } = artifacts as Required<typeof artifacts>;
    const snapshot = lightText ? withLightContrast(artifacts.snapshot!, lightText) : artifacts.snapshot!;
    const axe = options.axe ? await timed("render axe", () => axeOnRender(page, cdp)) : undefined;
    const axeTargets = [...(axe?.violations ?? []), ...(axe?.incomplete ?? [])].flatMap((v) =>
      v.nodes.map((n) => n.target),
    );
    const changesAt = await timed("render change marks", () => changesOf(page, snapshot, layout, marked, axeTargets));
    if (blocked.length) {
      notes.push(`${blocked.length} remote request(s) blocked (images are shown as their alt text or an empty box)`);
      changes.push({
        action: "images-blocked",
        target: `${blocked.length} remote request(s), first ${blocked[0]!.slice(0, 100)}`,
        rule: "every render is an images-off render: nothing remote is fetched, an image shows as its alt text or an empty box",
        source: "assay",
        count: blocked.length,
      });
    }
    return {
      client,
      formFactor,
      dark,
      darkMode,
      label,
      screenshot,
      layout,
      snapshot,
      notes,
      changes,
      changesOmitted: sanitized.omitted,
      changesAt,
      blocked,
      ...(axe ? { axe } : {}),
      engine: "chromium",
      ...(client.renderIn && client.renderIn !== "chromium" ? { document: await page.content() } : {}),
    };
  }
}

/**
 * A context and its page for renders of one message. The context is opened on the first render and replaced after
 * a render fails; requests are refused at the context (recorded per render); closing happens after the answer, on
 * the turn the lane holds (BrowserPool.use's finishLater).
 */
export class RenderLane {
  private opened: Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> | null = null;
  private blocked: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly finishLater: (cleanup: Promise<unknown>) => void,
  ) {}

  /** The lane's page (opened now if it has none), with its CDP session. */
  page(): Promise<{ page: Page; cdp: CDPSession }> {
    this.opened ??= this.open();
    return this.opened;
  }

  /** A new list for the requests the next render makes. */
  startRender(): string[] {
    this.blocked = [];
    return this.blocked;
  }

  /** Drops the context (closed after the answer); the next render opens a new one. */
  discard(): void {
    const opened = this.opened;
    this.opened = null;
    if (opened)
      this.finishLater(
        timed("render context close", () => opened.then(({ context }) => context.close()).catch(() => {})),
      );
  }

  private async open() {
    const context = await timed("render context", () =>
      this.browser.newContext({
        deviceScaleFactor: 1,
        javaScriptEnabled: false,
        serviceWorkers: "block",
        acceptDownloads: false,
        offline: true,
      }),
    );
    try {
      return await timed("render page", async () => {
        await context.route("**/*", (route) => {
          if (this.blocked.length < 200) this.blocked.push(route.request().url());
          return route.abort("blockedbyclient").catch(() => {});
        });
        await context.routeWebSocket(
          () => true,
          (ws) => ws.close(),
        );
        const page = await context.newPage();
        page.on("dialog", (d) => void d.dismiss().catch(() => {}));
        page.on("popup", (p) => void p.close().catch(() => {}));
        return { context, page, cdp: await context.newCDPSession(page) };
      });
    } catch (e) {
      await context.close().catch(() => {});
      throw e;
    }
  }
}

/**
 * Runs `fn` with a render lane on a turn of the pool: one context and one page (JavaScript off, no network) kept for
 * several renders of one message, one after another. A context's renderer process costs more than a render, so the
 * renders of a message share it; they are of the same message, so nothing crosses a tenant. The lane's context
 * closes after `fn`'s answer, on that turn, which is waited for in the pool's `admissionLane` (BrowserPool.use).
 */
export function withRenderLane<T>(
  pool: BrowserPool,
  fn: (lane: RenderLane) => Promise<T>,
  admissionLane?: string,
): Promise<T> {
  return pool.use(async (browser, finishLater) => {
    const lane = new RenderLane(browser, finishLater);
    try {
      return await fn(lane);
    } finally {
      lane.discard();
    }
  }, admissionLane);
}
