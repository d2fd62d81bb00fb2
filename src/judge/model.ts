import OpenAI from "openai";
import type { Judge, JudgeInput } from "./judge";
import type { Finding, JudgeProvenance, Outcome } from "../validations/types";
import { sha256Hex } from "../store/canonical";

export interface ModelJudgeConfig {
  baseURL: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * The version of what the model is asked (the system prompt, the user text's layout, VERDICT_SCHEMA): bump it with
 * any change to them. It is recorded with every verdict, and an evaluation counts only for the version it measured.
 */
export const PROMPT_VERSION = "2026-11-27.1";

const SYSTEM_PROMPT =
  "You are a QA reviewer judging one check on screenshots of a rendered page. Decide pass or fail strictly by the check's judgment. Use the measurements as evidence; do not invent facts. Answer only with the JSON schema.";

/** The JSON schema the model must answer with (OpenAI structured outputs). */
const VERDICT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["verdict", "reasoning", "findings"],
  properties: {
    verdict: { type: "string", enum: ["pass", "fail"] },
    reasoning: { type: "string", description: "Why, citing what is visible in the captures and the measurements." },
    reason: { type: "string", description: "On fail: what to fix and where." },
    findings: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["message"],
        properties: { message: { type: "string" }, selector: { type: "string" }, viewport: { type: "string" } },
      },
    },
  },
} as const;

/**
 * A vision model behind any OpenAI-compatible chat-completions endpoint. It sees the captures, the
 * check's judgment prose and the inspector's measurements, and must answer in VERDICT_SCHEMA. A failed,
 * timed-out or unparseable answer is an error row (refunded), never a guess.
 */
export class ModelJudge implements Judge {
  readonly name = "model";
  private readonly client: OpenAI;

  constructor(private readonly config: ModelJudgeConfig) {
    this.client = new OpenAI({
      baseURL: config.baseURL,
      apiKey: config.apiKey ?? "not-needed",
      timeout: config.timeoutMs ?? 30_000,
      maxRetries: config.maxRetries ?? 1,
    });
  }

  async judge({ meta, inspection, screenshots }: JudgeInput): Promise<Outcome> {
    const given = {
      verdict: inspection.verdict,
      reasoning: inspection.reasoning,
      findings: inspection.findings.slice(0, 20),
    };
    const started = performance.now();
    const provenance = (answer?: "pass" | "fail", usage?: OpenAI.CompletionUsage): JudgeProvenance => ({
      judge: "model",
      model: this.config.model,
      promptVersion: PROMPT_VERSION,
      images: screenshots.map((s) => ({ viewport: s.viewport, sha256: sha256Hex(s.data), bytes: s.data.byteLength })),
      inspection: given,
      ...(answer ? { answer } : {}),
      ...(usage
        ? {
            usage: {
              promptTokens: usage.prompt_tokens ?? 0,
              completionTokens: usage.completion_tokens ?? 0,
              totalTokens: usage.total_tokens ?? 0,
            },
          }
        : {}),
      latencyMs: Math.round(performance.now() - started),
    });
    let completion: OpenAI.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create({
        model: this.config.model,
        temperature: 0,
        response_format: {
          type: "json_schema",
          json_schema: { name: "verdict", strict: true, schema: VERDICT_SCHEMA as unknown as Record<string, unknown> },
        },
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          {
            role: "user",
            content: [
              {
                type: "text",
                text: `Check: ${meta.name} (${meta.id})\nJudgment: ${meta.judgment}\nInspector measurements: ${JSON.stringify(given)}\nCaptures: ${screenshots.map((s) => `${s.viewport} ${s.width}x${s.height}${s.cut ? " (cut)" : ""}`).join(", ")}`,
              },
              ...screenshots.map((s) => ({
                type: "image_url" as const,
                image_url: {
                  url: `data:${s.contentType};base64,${Buffer.from(s.data).toString("base64")}`,
                  detail: "high" as const,
                },
              })),
            ],
          },
        ],
      });
    } catch (e) {
      return modelError(`The vision model did not answer: ${(e as Error).message}`, provenance());
    }
    const content = completion.choices[0]?.message?.content;
    const usage = completion.usage;
    let answer: { verdict?: unknown; reasoning?: unknown; reason?: unknown; findings?: unknown };
    try {
      answer = JSON.parse(content ?? "");
    } catch {
      return modelError("The vision model's answer was not JSON.", provenance(undefined, usage));
    }
    if (
      (answer.verdict !== "pass" && answer.verdict !== "fail") ||
      typeof answer.reasoning !== "string" ||
      !Array.isArray(answer.findings)
    ) {
      return modelError("The vision model's answer did not match the verdict schema.", provenance(undefined, usage));
    }
    const findings = (answer.findings as Array<Record<string, unknown>>)
      .filter((f) => f && typeof f.message === "string")
      .map(
        (f) =>
          ({
            message: f.message,
            ...(typeof f.selector === "string" ? { selector: f.selector } : {}),
            ...(typeof f.viewport === "string" ? { viewport: f.viewport } : {}),
          }) as Finding,
      );
    return {
      verdict: answer.verdict,
      ...(answer.verdict === "fail"
        ? { reason: typeof answer.reason === "string" && answer.reason ? answer.reason : answer.reasoning }
        : {}),
      reasoning: `${answer.reasoning} (judged by ${this.config.model}; inspector measured: ${inspection.reasoning})`,
      findings,
      judge: provenance(answer.verdict, usage),
    };
  }
}

const modelError = (reason: string, judge: JudgeProvenance): Outcome => ({
  verdict: "error",
  reason,
  reasoning: reason,
  findings: [],
  judge,
});
