import type { PlannedValidation } from "../domain/job-request";
import type { RecordedResult } from "../domain/jobs";
import type { EmailArtifacts } from "../inbox/email-artifacts";
import { renderTargets } from "../catalog/email-clients";
import { renderPrice } from "../catalog/render-pricing";
import type { RenderTarget } from "../capture/vocabulary";
import { EmailRenderEngine, type RenderOutcome } from "../capture/mail-clients/render";
import type { NewEvent } from "../store/event-store";
import type { ServiceContext } from "./context";

/** How many renders of one job run at once (each in its own browser context). */
const CONCURRENCY = 3;

export const needsRenders = (planned: PlannedValidation[]) => planned.some((v) => v.module.meta.needs.includes("render"));

/**
 * The render stage of an email job: every (client, form factor) the visual checks ask for is rendered once
 * (src/capture/mail-clients), each screenshot stored as a capture (`<jobId>-<clientId>-<formFactor>.jpg`),
 * and the outcomes handed to the checks on the message (EmailArtifacts.renders). After the checks ran,
 * finish() judges their outcomes on the screenshots (ctx.judge), attaches the capture keys, and reports
 * each client that failed to render: a finding naming it and a refund of its render's credits (a check
 * none of whose clients rendered is an error row, refunded in full at settlement).
 */
export class EmailRenderStage {
  readonly captureEvents: NewEvent[] = [];
  private readonly keys = new Map<string, string>();

  private constructor(
    private readonly ctx: ServiceContext,
    private readonly byCheck: Map<string, RenderOutcome[]>,
  ) {}

  static async run(ctx: ServiceContext, jobId: string, customerId: string, email: EmailArtifacts, planned: PlannedValidation[]): Promise<EmailRenderStage> {
    const wanted = new Map<string, RenderTarget>();
    const targetsOf = new Map<string, RenderTarget[]>();
    for (const v of planned.filter((p) => p.module.meta.needs.includes("render"))) {
      const targets = renderTargets(v.module, v.clients);
      targetsOf.set(v.module.meta.id, targets);
      for (const t of targets) wanted.set(`${t.client.id}-${t.formFactor}`, t);
    }
    const outcomes = new Map<string, RenderOutcome>();
    const hasBody = email.html !== null || email.text !== null;
    const engine = new EmailRenderEngine(ctx.pool);
    const queue = [...wanted];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [label, target] = next;
          outcomes.set(
            label,
            hasBody ? await engine.render({ html: email.html, text: email.text }, target) : { ok: false, client: target.client, formFactor: target.formFactor, label, error: "the message has no body" },
          );
        }
      }),
    );
    const byCheck = new Map([...targetsOf].map(([id, targets]) => [id, targets.map((t) => outcomes.get(`${t.client.id}-${t.formFactor}`)!)]));
    const stage = new EmailRenderStage(ctx, byCheck);
    for (const [label, outcome] of outcomes) {
      if (!outcome.ok) continue;
      const key = `${jobId}-${label}.jpg`;
      stage.captureEvents.push(ctx.captures.store(customerId, jobId, key, outcome.render.screenshot));
      stage.keys.set(label, key);
    }
    email.renders = Object.fromEntries(byCheck);
    return stage;
  }

  /** Judges the visual rows on their renders, attaches their captures, and refunds and reports failed renders. */
  async finish(rows: RecordedResult[], planned: PlannedValidation[]): Promise<RecordedResult[]> {
    return Promise.all(
      rows.map(async (row) => {
        const v = planned.find((p) => p.module.meta.id === row.validationId);
        const outcomes = this.byCheck.get(row.validationId);
        if (!v || !outcomes) return row;
        const ok = outcomes.filter((o): o is Extract<RenderOutcome, { ok: true }> => o.ok);
        const failed = outcomes.filter((o): o is Extract<RenderOutcome, { ok: false }> => !o.ok);
        const result: RecordedResult = { ...row, captureKeys: ok.map((o) => this.keys.get(o.render.label)!).filter(Boolean) };
        if (result.outcome.verdict !== "error" && ok.length) {
          const started = performance.now();
          result.outcome = await this.ctx.judge.judge({ meta: v.module.meta, inspection: result.outcome, screenshots: ok.map((o) => o.render.screenshot) });
          result.durationMs += performance.now() - started;
        }
        if (failed.length && result.outcome.verdict !== "error") {
          const credits = Math.min(result.credits, failed.reduce((n, f) => n + renderPrice(f.client), 0));
          const names = failed.map((f) => `${f.client.name} at ${f.formFactor}`).join(", ");
          result.outcome = {
            ...result.outcome,
            reasoning: `${result.outcome.reasoning} Not judged in ${names}: the render failed (${credits} credit(s) refunded).`,
            findings: [
              ...result.outcome.findings,
              ...failed.map((f) => ({ message: `${f.client.name} could not be rendered, so this verdict does not cover it: ${f.error} (refunded)`, viewport: f.formFactor, measured: { client: f.client.id, refundedCredits: renderPrice(f.client) } })),
            ],
          };
          result.refund = { credits, reason: `could not render in ${names}` };
        }
        return result;
      }),
    );
  }
}
