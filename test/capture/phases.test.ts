import { afterAll, beforeAll, expect, test } from "bun:test";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PHASE_CHANNEL, type PhaseTiming } from "../../src/phases";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/** A job's phases reach a subscriber of the assay.phase channel (what `npm run bench` profiles with). */
let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server?.stop();
});

test("a webpage job publishes each phase it went through, from its plan to its settlement, with its duration", async () => {
  const seen: PhaseTiming[] = [];
  const onPhase = (m: unknown) => void seen.push(m as PhaseTiming);
  subscribe(PHASE_CHANNEL, onPhase);
  try {
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob('<html lang="en"><title>Phases</title><h1>Phases</h1></html>', ["page-title", "single-h1"]),
    });
    expect(res.status).toBe(200);
    // The context closes after the answer, on the turn the job still holds.
    for (let i = 0; i < 100 && !seen.some((p) => p.phase === "context close"); i++) await Bun.sleep(20);
  } finally {
    unsubscribe(PHASE_CHANNEL, onPhase);
  }
  const names = new Set(seen.map((p) => p.phase));
  for (const phase of [
    "plan",
    "job accept",
    "queue",
    "context",
    "page",
    "page set-up",
    "navigation",
    "settle",
    "page helpers",
    "resize",
    "gather dom",
    "check page-title",
    "check single-h1",
    "job settle",
    "job view",
    "group commit",
    "context close",
  ]) {
    expect(names).toContain(phase);
  }
  expect(seen.every((p) => Number.isFinite(p.ms) && p.ms >= 0)).toBe(true);
  // Nothing of a screenshot or axe was gathered: neither check reads one.
  expect([...names].filter((n) => /screenshot|axe/.test(n))).toEqual([]);
});

/** The phases one job went through, its context closed. */
async function phasesOf(body: unknown): Promise<{ job: any; phases: string[] }> {
  const seen: string[] = [];
  const onPhase = (m: unknown) => void seen.push((m as PhaseTiming).phase);
  subscribe(PHASE_CHANNEL, onPhase);
  try {
    const res = await server.api("POST", "/api/jobs", { key: apiKey, body });
    expect(res.status).toBe(200);
    for (let i = 0; i < 100 && !seen.includes("context close"); i++) await Bun.sleep(20);
    return { job: res.body, phases: seen };
  } finally {
    unsubscribe(PHASE_CHANNEL, onPhase);
  }
}

const count = (phases: string[], name: string) => phases.filter((p) => p === name).length;

test("captureSizes renders a size only where something reads or keeps it: not for the DOM checks, offered at desktop-md alone", async () => {
  const html = '<html lang="en"><head><title>Sizes</title></head><body><h1>Sizes</h1></body></html>';
  const all = { captureSizes: ["mobile-sm", "tablet-portrait", "desktop-md"] };
  const dom = await phasesOf(htmlJob(html, ["page-title", "single-h1", "html-lang"], all));
  expect(dom.job.results.map((r: any) => r.verdict)).toEqual(["pass", "pass", "pass"]);
  expect([count(dom.phases, "resize"), count(dom.phases, "gather dom")]).toEqual([1, 1]);
  // A check offered at every size (layout-not-broken) is read at the sizes asked.
  const visual = await phasesOf(htmlJob(html, ["page-title", "layout-not-broken"], { captureSizes: ["mobile-sm"] }));
  expect([count(visual.phases, "resize"), count(visual.phases, "gather layout")]).toEqual([2, 2]);
  // The network is recorded through the page's whole life: a resize may load what the other sizes did not.
  const network = await phasesOf(htmlJob(html, ["page-title", "page-weight"], all));
  expect(count(network.phases, "resize")).toBe(3);
});

test("contrast is gathered only at the sizes a contrast check is judged at, not at every size the page visits", async () => {
  const html = '<html lang="en"><head><title>Sizes</title></head><body><h1>Sizes</h1></body></html>';
  // accessibility-wcag reads the contrast at desktop-md alone, though the page visits mobile-sm for layout-not-broken.
  const wcag = await phasesOf(
    htmlJob(html, ["accessibility-wcag", "layout-not-broken"], { captureSizes: ["mobile-sm"] }),
  );
  expect([count(wcag.phases, "resize"), count(wcag.phases, "gather contrast-pixels")]).toEqual([2, 1]);
  // color-contrast is judged at each size asked for.
  const contrast = await phasesOf(htmlJob(html, ["color-contrast"], { captureSizes: ["mobile-sm"] }));
  expect([count(contrast.phases, "resize"), count(contrast.phases, "gather contrast-pixels")]).toEqual([2, 2]);
  expect(contrast.job.results[0].reasoning).toContain("At mobile-sm:");
});
