import type { Config } from "../../config";
import type { BrowserPool } from "../browser-pool";
import type { ArtifactKind, RenderTarget } from "../vocabulary";
import { parseEmail, type EmailArtifacts } from "./email-artifacts";
import { authenticateEmail, type AuthenticationInput } from "./authentication";
import { gatherEmailHtml } from "./email-html";
import { timed } from "../../phases";
import { EmailRenderEngine, type RenderOutcome } from "../mail-clients/render";

/** How many renders of one message run at once (each in its own browser context). */
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
    private readonly config: Pick<Config, "dnsTimeoutMs" | "dnsFixtures" | "inboxDomain">,
  ) {
    this.renderer = new EmailRenderEngine(pool);
  }

  async capture(raw: Uint8Array, plan: EmailCapturePlan): Promise<EmailArtifacts> {
    const email = await timed("email parse", () => parseEmail(raw, { mailFrom: plan.envelope.mailFrom, rcptTo: plan.envelope.rcptTo }, plan.expectedSubject));
    const [authentication, htmlDom, renders] = await Promise.all([
      plan.needs.has("authentication") ? timed("email authentication", () => authenticateEmail(raw, plan.envelope, this.config)) : undefined,
      // The HTML part's structure, parsed in Chromium (no script, no requests).
      plan.needs.has("email-html") && email.html && email.bodyParts?.html !== false
        ? timed("email html", () => gatherEmailHtml(this.pool, email.html!)).catch((e) => ({ error: `The HTML part could not be read: ${(e as Error).message.split("\n")[0]}` }))
        : undefined,
      plan.renders ? timed("email renders (all)", () => this.render(email, plan.renders!)) : undefined,
    ]);
    return { ...email, ...(authentication ? { authentication } : {}), ...(htmlDom ? { htmlDom } : {}), ...(renders ? { renders } : {}) };
  }

  private async render(email: EmailArtifacts, groups: Record<string, RenderTarget[]>): Promise<Record<string, RenderOutcome[]>> {
    const labelOf = (t: RenderTarget) => `${t.client.id}-${t.formFactor}`;
    const queue = [...new Map(Object.values(groups).flat().map((t) => [labelOf(t), t]))];
    const outcomes = new Map<string, RenderOutcome>();
    const hasBody = email.html !== null || email.text !== null;
    await Promise.all(
      Array.from({ length: Math.min(RENDER_CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [label, target] = next;
          outcomes.set(
            label,
            hasBody
              ? await this.renderer.render({ html: email.html, text: email.text }, target)
              : { ok: false, client: target.client, formFactor: target.formFactor, label, error: "the message has no body" },
          );
        }
      }),
    );
    return Object.fromEntries(Object.entries(groups).map(([name, targets]) => [name, targets.map((t) => outcomes.get(labelOf(t))!)]));
  }
}
