import { basename } from "node:path";
import { AppError } from "../errors/app-error";
import type { PlannedJob, PlannedValidation } from "../domain/planned-job";
import { refundOf, type RecordedResult, type StoredFile } from "../domain/jobs";
import type { CheckServices, EmailValidation, Finding, Outcome, WebValidation } from "../validations/types";
import { CAPTURE_SIZES, ENGINE_NAMES, type CaptureSize } from "../capture/vocabulary";
import type { ArtifactKind, WebArtifacts } from "../capture/artifacts";
import { engineEvidence, engineScreenshots, evaluateAcrossEngines, renderInEngines } from "./engine-renders";
import { enginesOf, sizesOf } from "../domain/planned-job";
import type { Screenshot } from "../capture/artifacts";
import type { EmailCapturePlan } from "../capture/email/email-capture";
import type { EmailRender, RenderOutcome } from "../capture/mail-clients/render";
import type { RenderRecordData } from "../../events/jobs";
import { UrlProbe } from "../capture/url-probe";
import { UnparseableMessage, type EmailArtifacts } from "../capture/email/email-artifacts";
import { renderTargets } from "../catalog/email-clients";
import { renderPrice } from "../catalog/render-pricing";
import type { ServiceContext } from "./context";
import type { CaptureSink } from "./captures";
import { timed } from "../phases";

/** What a run produced: a row per planned check, the screenshots it stored, and why it stopped short if it did. */
export interface Execution {
  rows: RecordedResult[];
  captures: StoredFile[];
  interruption?: string;
}

/** A message as the inbox kept it: its bytes and the SMTP envelope. */
export interface MessageToCheck {
  raw: Uint8Array;
  envelope: EmailCapturePlan["envelope"];
  expectedSubject: string | null;
}

/**
 * What a capture gathers beyond what the checks read: more artifact kinds (the playground shows a screenshot whatever
 * runs; a run's visual comparison needs screenshots), and the selectors whose boxes "mask-boxes" measures (a run's
 * visual masks), recorded with each screenshot.
 */
export interface CaptureExtras {
  alsoNeeds?: ArtifactKind[];
  maskSelectors?: string[];
}

/** A part of a visual row that could not be delivered (a mail client that could not be rendered). */
interface UndeliveredPart {
  name: string;
  credits: number;
  finding: Finding;
}

/** What a visual row is judged on: its screenshots (and their capture keys), and what it could not cover. */
interface Evidence {
  screenshots: Screenshot[];
  keys: string[];
  undelivered: UndeliveredPart[];
  /** Email renders: what each client did to the message, beside its capture. */
  renders?: RenderRecordData[];
}

/** A captured subject, as the checks and the judge see it. */
interface Captured {
  evaluate(v: PlannedValidation): Outcome | Promise<Outcome>;
  evidence(v: PlannedValidation): Evidence;
}

/**
 * Runs a charged job's checks on either subject: capture (WebCaptureEngine or EmailCaptureEngine), store
 * the screenshots, run each check (a crash is an error row for that check only), judge each visual row on
 * its screenshots, and mark what a delivered row could not cover. Settlement is the caller's.
 */
export class JobRunner {
  constructor(
    private readonly ctx: Pick<ServiceContext, "guard" | "webCapture" | "engines" | "emailCapture" | "judge"> & {
      captures: CaptureSink;
    },
  ) {}

  async runWeb(jobId: string, customerId: string, job: PlannedJob, extras: CaptureExtras = {}): Promise<Execution> {
    if (job.run.length === 0) return { rows: [], captures: [] };
    const subject =
      job.type === "url"
        ? { type: "url" as const, url: job.url! }
        : { type: "static_html" as const, html: job.html!, baseUrl: job.baseUrl! };
    // Image URLs among the parameters (e.g. logo-usage's logoUrl): the capture loads and measures them as references.
    const referenceImages = job.run.flatMap((v) =>
      v.module.meta.parameters.filter((p) => p.referenceImage).map((p) => v.parameters[p.name]),
    );
    // Axe tags a parameter asks for (accessibility-wcag at AAA): axe runs their rules too, and only then.
    const axeTags = job.run.flatMap((v) =>
      v.module.meta.parameters.flatMap((p) => (p.axeTags ? p.axeTags(v.parameters[p.name]) : [])),
    );
    // Renders in other engines run beside the Chromium capture, each taking its own turn of the pool's admission.
    const inEngines = renderInEngines(this.ctx.engines, job, subject, customerId);
    const capture = await this.ctx.webCapture.capture(subject, {
      viewports: captureViewports(job, extras),
      sizesRead: sizesRead(job, extras),
      needs: new Set([...job.run.flatMap((v) => v.module.meta.needs), ...(extras.alsoNeeds ?? [])]),
      referenceImages: referenceImages.filter((u): u is string => typeof u === "string"),
      ...(axeTags.length ? { axeTags: [...new Set(axeTags)] } : {}),
      ...(extras.maskSelectors?.length ? { maskSelectors: extras.maskSelectors } : {}),
      // Turns are shared fairly between organizations (the playground's visitors share one lane).
      admissionLane: customerId,
    });
    const renders = await inEngines;
    if (!capture.ok)
      return { rows: errorRows(job.run, capture.interruption), captures: [], interruption: capture.interruption };
    const shots = Object.values(capture.artifacts.screenshots ?? {}) as Screenshot[];
    const keyOf = (s: Screenshot) => `${jobId}-${s.viewport}.jpg`;
    const boxes = capture.artifacts.maskBoxes;
    const captures = await timed("store captures", () =>
      Promise.all([
        ...shots.map(async (s) => {
          const stored = await this.ctx.captures.store(customerId, jobId, keyOf(s), s);
          const maskBoxes = boxes?.[s.viewport];
          return maskBoxes?.length ? { ...stored, maskBoxes } : stored;
        }),
        ...engineScreenshots(jobId, renders).map(({ key, shot }) =>
          this.ctx.captures.store(customerId, jobId, key, shot),
        ),
      ]),
    );
    // One probe per job: a URL two checks ask about (or one check twice) is fetched once; closed with the job.
    const services: CheckServices = { probe: new UrlProbe(this.ctx.guard) };
    try {
      const rows = await this.check(job.run, {
        evaluate: (v) => {
          const check = (artifacts: WebArtifacts) =>
            (v.module as WebValidation).evaluate(artifacts, v.parameters, services);
          const inChromium = (): Outcome | Promise<Outcome> => {
            const failed = v.module.meta.needs.filter((kind) => capture.artifacts.gatherFailures?.[kind]);
            if (failed.length === 0) return check(capture.artifacts);
            const cause = `The capture could not gather what this check reads (${failed.map((k) => `${k}: ${capture.artifacts.gatherFailures![k]}`).join("; ")}), so it has no verdict; the other checks were not affected.`;
            return { verdict: "error", reason: cause, reasoning: cause, findings: [] };
          };
          return evaluateAcrossEngines(v, job, renders, capture.artifacts.finalUrl, inChromium, check);
        },
        evidence: (v) => {
          const sizes = sizesOf(v.module, job.captureSizes);
          const own = enginesOf(v).includes("chromium") ? shots.filter((s) => sizes.includes(s.viewport)) : [];
          const other = engineEvidence(jobId, v, job, renders);
          return {
            screenshots: [...own, ...other.screenshots],
            keys: [...own.map(keyOf), ...other.keys],
            undelivered: other.undelivered,
          };
        },
      });
      return { rows, captures };
    } finally {
      services.probe.close();
    }
  }

  /** An email job's checks on its message; `email` is null when the bytes are not a message (every row errored). */
  async runEmail(
    jobId: string,
    customerId: string,
    planned: PlannedValidation[],
    message: MessageToCheck,
  ): Promise<Execution & { email: EmailArtifacts | null }> {
    const rendered = planned.filter((v) => v.module.meta.needs.includes("render"));
    let email: EmailArtifacts;
    try {
      email = await this.ctx.emailCapture.capture(message.raw, {
        envelope: message.envelope,
        expectedSubject: message.expectedSubject,
        needs: new Set(planned.flatMap((v) => v.module.meta.needs)),
        admissionLane: customerId,
        // Each visual check's renders under its id (each (client, form factor) rendered once per job).
        ...(rendered.length
          ? { renders: Object.fromEntries(rendered.map((v) => [v.module.meta.id, renderTargets(v.module, v.clients)])) }
          : {}),
      });
    } catch (e) {
      if (!(e instanceof UnparseableMessage)) throw e;
      return { rows: errorRows(planned, e.message), captures: [], email: null };
    }
    // Each render's screenshot stored once as `<jobId>-<clientId>-<formFactor>.jpg`, however many checks read it.
    const keys = new Map<string, string>();
    const captures: StoredFile[] = [];
    for (const outcome of Object.values(email.renders ?? {}).flat()) {
      if (!outcome.ok || keys.has(outcome.render.label)) continue;
      const key = `${jobId}-${outcome.render.label}.jpg`;
      captures.push(await this.ctx.captures.store(customerId, jobId, key, outcome.render.screenshot));
      keys.set(outcome.render.label, key);
    }
    const rows = await this.check(planned, {
      evaluate: (v) => (v.module as EmailValidation).evaluate(email, v.parameters),
      evidence: (v) => {
        const outcomes = email.renders?.[v.module.meta.id] ?? [];
        const ok = outcomes.filter((o): o is Extract<RenderOutcome, { ok: true }> => o.ok);
        const failed = outcomes.filter((o): o is Extract<RenderOutcome, { ok: false }> => !o.ok);
        return {
          screenshots: ok.map((o) => o.render.screenshot),
          keys: ok.map((o) => keys.get(o.render.label)!),
          renders: ok.map((o) => renderRecord(o.render, keys.get(o.render.label)!)),
          undelivered: failed.map((f) => ({
            name: `${f.client.name} at ${f.formFactor}`,
            credits: renderPrice(f.client),
            finding: {
              message: `${f.client.name} could not be rendered, so this verdict does not cover it: ${f.error} (refunded)`,
              viewport: f.formFactor,
              measured: { client: f.client.id, refundedCredits: renderPrice(f.client) },
            },
          })),
        };
      },
    });
    return { rows, captures, email };
  }

  /** Every check on the captured subject; each visual row judged on its own screenshots (the one judge call). */
  private check(planned: PlannedValidation[], captured: Captured): Promise<RecordedResult[]> {
    return Promise.all(
      planned.map(async (v) => {
        const result = await runCheck(v, () => captured.evaluate(v));
        if (v.module.meta.kind !== "visual") return result;
        const evidence = captured.evidence(v);
        result.captureKeys = evidence.keys;
        if (evidence.renders) result.renders = evidence.renders;
        if (result.outcome.verdict !== "error" && evidence.screenshots.length) {
          const started = performance.now();
          result.outcome = await timed("judge", () =>
            this.ctx.judge.judge({
              meta: v.module.meta,
              inspection: result.outcome,
              screenshots: evidence.screenshots,
            }),
          );
          result.durationMs += performance.now() - started;
        }
        return evidence.undelivered.length && result.outcome.verdict !== "error"
          ? withUndelivered(result, evidence.undelivered)
          : result;
      }),
    );
  }
}

/** One render as its result records it: the client, how it was darkened, and what its profile changed. */
function renderRecord(r: EmailRender, captureKey: string): RenderRecordData {
  return {
    captureKey,
    clientId: r.client.id,
    formFactor: r.formFactor,
    engine: r.engine,
    ...(r.engineNote ? { engineNote: r.engineNote } : {}),
    ...(r.darkMode ? { darkMode: r.darkMode } : {}),
    changes: r.changes,
    changesOmitted: r.changesOmitted,
  };
}

/** A delivered row that could not cover some parts: says which, and carries their price for the refund rule. */
function withUndelivered(result: RecordedResult, parts: UndeliveredPart[]): RecordedResult {
  const names = parts.map((p) => p.name).join(", ");
  const marked: RecordedResult = {
    ...result,
    undelivered: { credits: parts.reduce((n, p) => n + p.credits, 0), reason: `could not render in ${names}` },
  };
  const refunded = refundOf(marked)!.credits;
  return {
    ...marked,
    outcome: {
      ...result.outcome,
      reasoning: `${result.outcome.reasoning} Not judged in ${names}: the render failed (${refunded} credit(s) refunded).`,
      findings: [...result.outcome.findings, ...parts.map((p) => p.finding)],
    },
  };
}

/**
 * Both subjects are captured in Chromium: a run is refused before it is charged or counted when no browser can be
 * launched, and a page to render now (`rendersNow`: not an email job, whose message comes later) when more are
 * already waiting for a turn than ASSAY_BROWSER_QUEUE allows; and when a check of `run` names an engine this machine
 * lacks the programs for (ENGINE_UNAVAILABLE).
 */
export async function browserReady(
  ctx: Pick<ServiceContext, "pool" | "config" | "engines">,
  { rendersNow, run = [] }: { rendersNow: boolean; run?: PlannedValidation[] },
): Promise<void> {
  for (const engine of ["webkit", "gecko"] as const) {
    if (!run.some((v) => enginesOf(v).includes(engine))) continue;
    // Programs by name only: where they would be is this machine's business, not the caller's.
    const missing = (engine === "webkit" ? ctx.engines.webkitMissing() : ctx.engines.geckoMissing()).map((m) =>
      m.startsWith("/") ? basename(m) : m,
    );
    if (missing.length) {
      throw new AppError(
        "ENGINE_UNAVAILABLE",
        `${ENGINE_NAMES[engine]} cannot render here (${missing.join(", ")}); nothing was charged. Resubmit without "${engine}" in engines, or ask the operator to install it.`,
        { engine, missing },
      );
    }
  }
  if (rendersNow && ctx.pool.waiting >= ctx.config.browserQueueLimit) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `${ctx.pool.waiting} pages are already waiting for a browser here; nothing was charged. Retry in a few seconds.`,
      { dependency: "chromium", waiting: ctx.pool.waiting, retryAfterSeconds: 5 },
      undefined,
      true,
    );
  }
  try {
    await ctx.pool.warm();
  } catch (e) {
    // Why it failed is the operator's to read (it names paths on this machine), not the caller's.
    console.error((e as Error).message.split("\n")[0]);
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "No browser can be started or reached here now, so no job can run; nothing was charged. Retry shortly.",
      {
        dependency: "chromium",
      },
      undefined,
      true,
    );
  }
}

/** The page's records of its whole life (artifacts.ts, PageRecords): a resize may add to them (an image loaded, an error thrown). */
const WHOLE_LIFE: readonly ArtifactKind[] = ["network", "console"];

/**
 * The sizes a page is rendered at: every selected check's standard sizes, and those captureSizes adds where something
 * is read or kept there: a check offered at that size, the screenshots a run's visual comparison or the playground
 * keeps (`extras.alsoNeeds`), or the page's whole-life records. A size no selected check offers is not rendered for
 * the DOM alone: the DOM checks read desktop-md, their only size, so a resize there would be read by nothing.
 */
function captureViewports(job: PlannedJob, extras: CaptureExtras): CaptureSize[] {
  const wanted = new Set<CaptureSize>(job.run.flatMap((v) => v.module.meta.capture.standard));
  const needs = job.run.flatMap((v) => v.module.meta.needs);
  const keptAtEverySize = !!extras.alsoNeeds?.length || needs.some((kind) => WHOLE_LIFE.includes(kind));
  for (const size of job.captureSizes ?? [])
    if (keptAtEverySize || job.run.some((v) => v.module.meta.capture.offered.includes(size))) wanted.add(size);
  // DOM checks read desktop-md; it is always gathered for them.
  if (needs.includes("dom")) wanted.add("desktop-md");
  return [...wanted];
}

/**
 * The sizes each kind is read at: those each check that reads it is judged at (its standard sizes, and those of the
 * request's captureSizes it offers), every size for a kind the extras ask for (kept whatever the checks read).
 */
function sizesRead(job: PlannedJob, extras: CaptureExtras): Partial<Record<ArtifactKind, CaptureSize[]>> {
  const read: Partial<Record<ArtifactKind, Set<CaptureSize>>> = {};
  for (const v of job.run)
    for (const kind of v.module.meta.needs)
      for (const size of sizesOf(v.module, job.captureSizes))
        if (v.module.meta.capture.offered.includes(size)) (read[kind] ??= new Set()).add(size);
  for (const kind of extras.alsoNeeds ?? []) read[kind] = new Set(CAPTURE_SIZES);
  return Object.fromEntries(Object.entries(read).map(([kind, sizes]) => [kind, [...sizes]]));
}

async function runCheck(v: PlannedValidation, check: () => Outcome | Promise<Outcome>): Promise<RecordedResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await timed(`check ${v.module.meta.id}`, async () => check());
  } catch (e) {
    // A crash in one check is an error row for that check only, refunded at settlement.
    const message = `The check crashed: ${(e as Error).message}`;
    outcome = { verdict: "error", reason: message, reasoning: message, findings: [] };
  }
  return row(v, outcome, performance.now() - started);
}

/** Every validation an error row with the same cause: the job could not run or read its subject at all. */
export function errorRows(validations: PlannedValidation[], cause: string): RecordedResult[] {
  return validations.map((v) => row(v, { verdict: "error", reason: cause, reasoning: cause, findings: [] }, 0));
}

function row(v: PlannedValidation, outcome: Outcome, durationMs: number): RecordedResult {
  return {
    validationId: v.module.meta.id,
    severity: v.severity,
    credits: v.credits,
    outcome,
    captureKeys: [],
    durationMs,
  };
}
