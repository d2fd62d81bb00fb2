import { Type } from "@sinclair/typebox";
import { pass, type Finding, type WebValidation } from "../types";
import { domCheck } from "./_helpers";

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export const pageWeight: WebValidation = {
  meta: domCheck({
    id: "page-weight",
    name: "Page weight",
    category: "performance",
    severity: "minor",
    summary: "Everything the page loads adds up to no more than maxKb kilobytes (1600 KB by default).",
    judgment:
      "Sums the bytes of every response the page received while loading and settling (the document, stylesheets, scripts, fonts, images, media, XHR/fetch), as delivered to the browser, in KB of 1024 bytes. Fails when the total is above maxKb; the findings name the five largest resources. data: URLs are part of the document that holds them; requests that failed or were refused add nothing.",
    needs: ["network"],
    parameters: [
      {
        name: "maxKb",
        description: "Largest allowed total of all responses, in kilobytes (1 KB = 1024 bytes).",
        format: "number from 1 to 1000000",
        schema: Type.Number({ minimum: 1, maximum: 1_000_000 }),
        default: 1600,
        example: 1600,
      },
    ],
    references: [
      {
        title: "Lighthouse: avoid enormous network payloads",
        url: "https://developer.chrome.com/docs/lighthouse/performance/total-byte-weight",
      },
    ],
  }),
  evaluate(artifacts, params) {
    const maxKb = params.maxKb as number;
    const entries = (artifacts.network ?? []).filter((e) => e.bytes > 0);
    const total = entries.reduce((sum, e) => sum + e.bytes, 0);
    const largest = [...entries].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
    const findings: Finding[] = largest.map((e) => ({
      message: `${kb(e.bytes)} KB ${e.document ? "document" : e.resourceType}${e.contentType ? ` (${e.contentType.split(";")[0]})` : ""}`,
      url: e.url,
      measured: { bytes: e.bytes, resourceType: e.resourceType },
    }));
    const byType = new Map<string, number>();
    for (const e of entries) byType.set(e.resourceType, (byType.get(e.resourceType) ?? 0) + e.bytes);
    const breakdown = [...byType]
      .sort((a, b) => b[1] - a[1])
      .map(([t, b]) => `${t} ${kb(b)} KB`)
      .join(", ");
    const measured = `${entries.length} response(s) total ${kb(total)} KB (limit ${maxKb} KB)${breakdown ? `: ${breakdown}` : ""}.`;
    if (total <= maxKb * 1024) return pass(measured, findings);
    return {
      verdict: "fail",
      reason: `The page loads ${kb(total)} KB, over the ${maxKb} KB limit by ${kb(total - maxKb * 1024)} KB; shrink or defer the largest: ${largest
        .slice(0, 3)
        .map((e) => `${e.url} (${kb(e.bytes)} KB)`)
        .join(", ")}`,
      reasoning: measured,
      findings,
    };
  },
};
