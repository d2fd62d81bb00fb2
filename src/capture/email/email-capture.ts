import type { Config } from "../../config";
import type { BrowserPool } from "../browser-pool";
import { ENGINE_NAMES, type RenderTarget } from "../vocabulary";
import type { ArtifactKind } from "../artifacts";
import { parseEmail, type EmailArtifacts } from "./email-artifacts";
import { authenticateEmail, type AuthenticationInput } from "./authentication";
import { gatherEmailHtml, readEmailHtml } from "./email-html";
import { timed } from "../../phases";
import {
  DEFAULT_RENDER_LIMITS,
  EmailRenderEngine,
  withRenderLane,
  type EmailRender,
  type RenderOptions,
  type RenderOutcome,
} from "../mail-clients/render";
import { profileOf } from "../mail-clients/profiles";
import type { EngineCaptures } from "../engines/engine-captures";
import { jpegOfPng } from "../screenshot-codec";
import type { NetworkGuard } from "../network-guard";
import type { TextReader } from "../ocr";
import { readEmailPictures } from "./email-image-text";

/** How many lanes (a turn of the pool, a context) one message's renders and HTML read use at most (fewer on a smaller pool). */
const RENDER_CONCURRENCY = 3;

export interface EmailCapturePlan {
  /** The SMTP envelope as the inbox recorded it (SPF reads the client's IP, HELO and MAIL FROM). */
  envelope: AuthenticationInput & { rcptTo: string[] };
  /** The subject line the job request expected, when it named one. */
  expectedSubject: string | null;
  /** What the selected checks read; only that is gathered. */
  needs: ReadonlySet<ArtifactKind>;
  /**
   * The mail-client renders wanted, in groups named by the caller (EmailArtifacts.renders hands each group
   * back under its name); a (client, form factor) wanted by several groups is rendered once.
   */
  renders?: Record<string, RenderTarget[]>;
  /** The pool's admission lane every turn of this message waits in (BrowserPool.use): the job runner's organization. */
  admissionLane?: string;
}

/**
 * Gathers everything the email checks read from one received message, each part once and only when a
 * check needs it: the MIME (postal-mime), then side by side SPF/DKIM/DMARC, the HTML part's structure in
 * Chromium, and the renders in emulated mail clients. Returns the whole artifacts object; throws
 * UnparseableMessage when the bytes are not a message.
 */
export class EmailCaptureEngine {
  private readonly renderer: EmailRenderEngine;

  constructor(
    private readonly pool: BrowserPool,
    private readonly config: Pick<Config, "dnsTimeoutMs" | "dnsFixtures" | "inboxDomain" | "appleMailInWebkit">,
    private readonly guard: NetworkGuard,
    private readonly textReader: TextReader,
    /**
     * Where clients whose profile names another engine (Apple Mail: WebKit, Thunderbird: Gecko) are laid out again;
     * absent: Chromium only.
     */
    private readonly engines?: Pick<
      EngineCaptures,
      "renderEmail" | "webkitMissing" | "renderEmailInGecko" | "geckoMissing"
    >,
  ) {
    this.renderer = new EmailRenderEngine(pool);
  }

  async capture(raw: Uint8Array, plan: EmailCapturePlan): Promise<EmailArtifacts> {
    const email = await timed("email parse", () =>
      parseEmail(raw, { mailFrom: plan.envelope.mailFrom, rcptTo: plan.envelope.rcptTo }, plan.expectedSubject),
    );
    // The HTML part's structure, parsed in Chromium (no script, no requests): on a render lane when there are renders.
    const html = plan.needs.has("email-html") && email.html && email.bodyParts?.html !== false ? email.html : null;
    const [authentication, browsed] = await Promise.all([
      plan.needs.has("authentication")
        ? timed("email authentication", () => authenticateEmail(raw, plan.envelope, this.config))
        : undefined,
      plan.renders
        ? timed("email renders (all)", () =>
            this.render(email, plan.renders!, html, plan.admissionLane, { axe: plan.needs.has("render-axe") }),
          )
        : this.readHtmlAlone(html, plan.admissionLane),
    ]);
    const { htmlDom, renders } = browsed;
    // The text in the HTML part's pictures, once its structure names them.
    const imageText =
      plan.needs.has("image-text") && htmlDom && !("error" in htmlDom)
        ? await timed("email image text", () =>
            readEmailPictures({
              raw,
              images: htmlDom.images,
              pool: this.pool,
              guard: this.guard,
              reader: this.textReader,
              admissionLane: plan.admissionLane,
            }),
          )
        : undefined;
    return {
      ...email,
      ...(authentication ? { authentication } : {}),
      ...(htmlDom ? { htmlDom } : {}),
      ...(renders ? { renders } : {}),
      ...(imageText ? { imageText } : {}),
    };
  }

  private async readHtmlAlone(
    html: string | null,
    admissionLane: string | undefined,
  ): Promise<{ htmlDom: EmailArtifacts["htmlDom"]; renders: undefined }> {
    return {
      htmlDom:
        html === null
          ? undefined
          : await timed("email html", () => gatherEmailHtml(this.pool, html, { admissionLane })).catch(htmlError),
      renders: undefined,
    };
  }

  /**
   * A render whose client Assay renders in another engine (client.renderIn: Apple Mail in WebKit, Thunderbird in
   * Gecko): its final document laid out again there, the screenshot and geometry then that engine's. Where the engine
   * is not available or its render fails, the Chromium emulation stays, and the render says so (engineNote).
   */
  private async inOwnEngine(outcome: RenderOutcome): Promise<RenderOutcome> {
    if (!outcome.ok || outcome.render.document === undefined) return outcome;
    const { document, ...render } = outcome.render;
    const chromium = (why: string): RenderOutcome => {
      const engineNote = `rendered in Chromium, emulating ${render.client.engine}: ${why}`;
      return { ok: true, render: { ...render, engineNote, notes: [...render.notes, engineNote] } };
    };
    const engine = render.client.renderIn === "gecko" ? "gecko" : "webkit";
    const name = ENGINE_NAMES[engine];
    if (engine === "webkit" && !this.config.appleMailInWebkit)
      return chromium("Apple Mail in WebKit is off on this server (ASSAY_APPLE_MAIL_IN_WEBKIT=1 turns it on)");
    const missing = !this.engines
      ? [`no ${name} engine in this process`]
      : engine === "webkit"
        ? this.engines.webkitMissing()
        : this.engines.geckoMissing();
    if (missing.length)
      return chromium(`${name} is not available here (${missing.map((m) => m.split("/").pop()).join(", ")})`);
    const { client, formFactor } = render;
    const profile = profileOf(client);
    const darkened = render.darkMode?.darkened ?? false;
    const viewport = { width: client.width, height: client.height };
    const look = {
      dark: render.dark,
      canvas: (darkened ? profile.dark : profile.light).canvas,
      maxHeight: DEFAULT_RENDER_LIMITS.screenshotMaxHeight,
    };
    try {
      const w = await timed(`render in ${engine}`, () =>
        engine === "webkit"
          ? this.engines!.renderEmail(document, viewport, look)
          : this.engines!.renderEmailInGecko(document, viewport, look),
      );
      const screenshot: EmailRender["screenshot"] = {
        viewport: formFactor,
        contentType: "image/jpeg",
        width: w.width,
        height: w.height,
        pageHeight: Math.max(w.height, w.layout.documentHeight),
        cut: w.layout.documentHeight > w.height,
        data: await jpegOfPng(w.png),
      };
      return { ok: true, render: { ...render, engine, screenshot, layout: w.layout } };
    } catch (e) {
      return chromium(`the ${name} render failed (${(e as Error).message.split("\n")[0]})`);
    }
  }

  /**
   * Every wanted render once, and the HTML read when `html` is given, on at most RENDER_CONCURRENCY lanes: each lane
   * is a turn of the pool with one context and page, and takes the next piece of work when it is done with one.
   */
  private async render(
    email: EmailArtifacts,
    groups: Record<string, RenderTarget[]>,
    html: string | null,
    admissionLane: string | undefined,
    options: RenderOptions,
  ): Promise<{ htmlDom: EmailArtifacts["htmlDom"]; renders: Record<string, RenderOutcome[]> }> {
    const labelOf = (t: RenderTarget) => `${t.client.id}-${t.formFactor}`;
    const queue: Array<["html", null] | [string, RenderTarget]> = [
      ...(html === null ? [] : [["html", null] as ["html", null]]),
      ...new Map(
        Object.values(groups)
          .flat()
          .map((t) => [labelOf(t), t]),
      ),
    ];
    const outcomes = new Map<string, RenderOutcome>();
    let htmlDom: EmailArtifacts["htmlDom"];
    const hasBody = email.html !== null || email.text !== null;
    const message = { html: email.html, text: email.text };
    await Promise.all(
      // No more lanes than the pool can run at once: a lane that waited for a place would find the work done.
      Array.from({ length: Math.min(RENDER_CONCURRENCY, queue.length, this.pool.capacity) }, () =>
        withRenderLane(
          this.pool,
          async (lane) => {
            for (let next = queue.shift(); next; next = queue.shift()) {
              const [label, target] = next;
              if (target === null) {
                htmlDom = await timed("email html", () => readEmailHtml(lane, html!)).catch(htmlError);
                continue;
              }
              outcomes.set(
                label,
                hasBody
                  ? await this.inOwnEngine(await this.renderer.render(message, target, lane, options))
                  : {
                      ok: false,
                      client: target.client,
                      formFactor: target.formFactor,
                      label,
                      error: "the message has no body",
                    },
              );
            }
          },
          admissionLane,
        ),
      ),
    );
    return {
      htmlDom,
      renders: Object.fromEntries(
        Object.entries(groups).map(([name, targets]) => [name, targets.map((t) => outcomes.get(labelOf(t))!)]),
      ),
    };
  }
}

/** A failed HTML read is an artifact the HTML checks error on, not a failure of the message. */
const htmlError = (e: unknown) => ({
  error: `The HTML part could not be read: ${(e as Error).message.split("\n")[0]}`,
});
