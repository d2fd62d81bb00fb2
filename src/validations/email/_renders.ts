import type { CaptureSize } from "../../capture/vocabulary";
import type { Finding, Outcome, ValidationMeta } from "../types";
import type { EmailArtifacts } from "../../capture/email/email-artifacts";
import type { EmailRender, RenderOutcome } from "../../capture/mail-clients/render";

/**
 * Defaults shared by the visual email checks: rendered in emulated mail clients (src/capture/mail-clients),
 * measured on each render, judged on the renders' screenshots. One credit per render (client × form
 * factor), one more in an extra-credit client; with no `clients`, each standard form factor's native client.
 */
export function renderCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta> & { standard: CaptureSize[]; dark?: boolean },
): ValidationMeta & { subjectType: "email" } {
  const { standard, dark, ...rest } = meta;
  return {
    slug: meta.id,
    kind: "visual",
    price: { credits: standard.length },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: ["mobile-sm", "tablet-portrait", "desktop-md"], standard },
    needs: dark ? ["render", "render-dark"] : ["render"],
    method: "dom",
    ...rest,
    subjectType: "email",
  };
}

/** The renders of this check's clients (set on the message by the job's render stage), split by outcome. */
export function rendersFor(
  email: EmailArtifacts,
  validationId: string,
): { ok: EmailRender[]; failed: Extract<RenderOutcome, { ok: false }>[] } | Outcome {
  const outcomes = email.renders?.[validationId];
  if (!outcomes) {
    const why =
      email.html === null && email.text === null
        ? "The message has no body to render."
        : "The message was not rendered for this check.";
    return { verdict: "error", reason: why, reasoning: why, findings: [] };
  }
  const ok = outcomes.filter((o): o is Extract<RenderOutcome, { ok: true }> => o.ok).map((o) => o.render);
  const failed = outcomes.filter((o): o is Extract<RenderOutcome, { ok: false }> => !o.ok);
  if (ok.length === 0) {
    const why = `The message could not be rendered in ${failed.map((f) => `${f.client.name} at ${f.formFactor} (${f.error})`).join("; ")}.`;
    return {
      verdict: "error",
      reason: why,
      reasoning: why,
      findings: failed.map((f) => ({
        message: `render failed: ${f.error}`,
        viewport: f.formFactor,
        text: f.client.id,
      })),
    };
  }
  return { ok, failed };
}

export const where = (r: EmailRender) => `${r.client.name} at ${r.formFactor} (${r.client.width}px)`;

export function findingAt(r: EmailRender, f: Omit<Finding, "viewport">): Finding {
  return { ...f, viewport: r.formFactor, measured: { client: r.client.id, ...(f.measured ?? {}) } };
}

export const quote = (text: string, max = 60) =>
  JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
