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
