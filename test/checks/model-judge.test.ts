import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventsOf, htmlJob, runCli, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { inSession, type MailRelay, type SignedIn, signIn, startServerWithRelay } from "../support/mail-relay";
import { page } from "../support/pages";
import { sha256Hex } from "../../src/store/canonical";
import { PROMPT_VERSION } from "../../src/judge/model";
import { visionModel } from "../support/vision-model";

const vision = visionModel();
const CLEAN = `<html lang="en"><head><title>T</title></head><body><h1>Hello</h1></body></html>`;
const OVERFLOWING = `<html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width"></head><body><h1>Hello</h1><div style="width:1400px;height:40px;background:#ccc">wide</div></body></html>`;
let server: TestServer;
let stopServer: () => Promise<void>;
let person: SignedIn;
let apiKey: string;
beforeAll(async () => {
  let relay: MailRelay;
  ({
    relay,
    server,
    stop: stopServer,
  } = await startServerWithRelay({
    ASSAY_VISION_BASE_URL: vision.baseURL,
    ASSAY_VISION_MODEL: "test-vision",
    ASSAY_VISION_API_KEY: "sk-test",
    // no-horizontal-overflow by name; others only by a stored evaluation of at least 90%.
    ASSAY_VISION_CHECKS: "no-horizontal-overflow",
    ASSAY_VISION_MIN_AGREEMENT: "90",
  }));
  person = await signIn(server, relay, uniqueEmail("model-judge"));
  const minted = await server.api("POST", "/api/keys", {
    headers: inSession(person),
    body: { name: "runner", scopes: ["jobs:read", "jobs:write"] },
  });
  apiKey = minted.body.apiKey;
});
afterAll(async () => {
  await stopServer();
  vision.stop();
});

const run = (html = CLEAN, checks = ["no-horizontal-overflow"], detail = "verbose") =>
  server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, checks, { detail }) });

test("the model judge sends the capture, the judgment and a JSON schema; its verdict is the result, with its provenance", async () => {
  vision.script.push({
    verdict: "fail",
    reasoning: "The grey bar runs off the right edge.",
    reason: "Shrink the grey bar to 100% width",
    findings: [{ message: "bar too wide", viewport: "mobile-sm" }],
    usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 },
  });
  const res = await run(OVERFLOWING);
  expect(res.status).toBe(200);
  const [result] = res.body.results;
  expect(result.verdict).toBe("fail");
  expect(result.reasonCode).toBeUndefined();
  expect(result.reason).toBe("Shrink the grey bar to 100% width");
  expect(result.reasoning).toContain("judged by test-vision");
  expect(result.findings).toEqual([{ message: "bar too wide", viewport: "mobile-sm" }]);

  const sent = vision.requests.at(-1);
  expect(sent.model).toBe("test-vision");
  expect(sent.response_format.type).toBe("json_schema");
  expect(sent.response_format.json_schema.schema.required).toEqual(["verdict", "reasoning", "findings"]);
  const parts = sent.messages[1].content;
  expect(parts[0].text).toContain("Judgment:");
  const images = parts.filter((p: any) => p.type === "image_url");
  expect(images).toHaveLength(1);
  expect(images[0].image_url.url).toStartWith("data:image/jpeg;base64,/9j/");

  // Provenance: what the model saw (the image's hash is the stored capture's), what it was given, what it cost.
  const judge = result.judge;
  expect(judge.model).toBe("test-vision");
  expect(judge.promptVersion).toBe(PROMPT_VERSION);
  expect(judge.answer).toBe("fail");
  expect(judge.usage).toEqual({ promptTokens: 1234, completionTokens: 56, totalTokens: 1290 });
  const sentImage = Buffer.from(images[0].image_url.url.split(",")[1], "base64");
  expect(judge.images).toEqual([{ viewport: "mobile-sm", sha256: sha256Hex(sentImage), bytes: sentImage.length }]);
  const stored = eventsOf(server).find((e) => e.type === "CaptureStored" && (e.data as any).jobId === res.body.jobId)!;
  expect((stored.data as any).sha256).toBe(judge.images[0].sha256);
  expect(judge.inspection.verdict).toBe("fail");
  expect(parts[0].text).toContain(`Inspector measurements: ${JSON.stringify(judge.inspection)}`);
  expect(typeof judge.latencyMs).toBe("number");

  // Recorded on the log, shown in verbose detail only, and the same after the read models are rebuilt.
  const recorded = eventsOf(server).find(
    (e) => e.type === "ResultRecorded" && (e.data as any).jobId === res.body.jobId,
  )!;
  expect((recorded.data as any).judge).toEqual(judge);
  const brief = await server.api("GET", `/api/jobs?jobId=${res.body.jobId}`, { key: apiKey });
  expect(brief.body.jobs[0].results[0].judge).toBeUndefined();
  // A share link is signed for a time from now, so it is the one field that differs between two reads.
  const verbose = async () => {
    const { results, ...job } = (
      await server.api("GET", `/api/jobs?jobId=${res.body.jobId}&detail=verbose`, { key: apiKey })
    ).body.jobs[0];
    return { ...job, results: results.map(({ screenshotShareUrl: _, ...r }: any) => r) };
  };
  const before = await verbose();
  expect(before.results[0].judge).toEqual(judge);
  expect((await runCli(["replay"], server.env)).code).toBe(0);
  expect(await verbose()).toEqual(before);
});

test("a model fail the inspector's measurements contradict needs review: an error with NEEDS_REVIEW, refunded", async () => {
  vision.script.push({
    verdict: "fail",
    reasoning: "Something looks off on the right.",
    reason: "Fix the right edge",
    findings: [],
  });
  const res = await run(CLEAN);
  const [result] = res.body.results;
  expect(result.verdict).toBe("error");
  expect(result.reasonCode).toBe("NEEDS_REVIEW");
  expect(result.reason).toContain("Needs review: test-vision failed this check (Fix the right edge)");
  expect(result.reason).toContain("the inspector's measurements of the same captures found nothing");
  expect(result.note).toContain("look at the captures");
  expect(result.judge.answer).toBe("fail");
  expect(result.judge.inspection.verdict).toBe("pass");
  expect(res.body.credits.refunded).toBe(res.body.credits.charged);
  expect(res.body.credits.net).toBe(0);
  const recorded = eventsOf(server).find(
    (e) => e.type === "ResultRecorded" && (e.data as any).jobId === res.body.jobId,
  )!;
  expect((recorded.data as any).reasonCode).toBe("NEEDS_REVIEW");
  // The job's page in the dashboard says so, and who judged.
  const jobPage = (await page(server, `/dashboard/jobs/${res.body.jobId}`, person.cookie)).text;
  expect(jobPage).toContain('<span class="error">needs review</span>');
  expect(jobPage).toContain("Judged by the vision model <code>test-vision</code>");
});

test("a model pass on a clean page is the verdict", async () => {
  vision.script.push({ verdict: "pass", reasoning: "Nothing runs off the edge.", findings: [] });
  const [result] = (await run(CLEAN)).body.results;
  expect(result.verdict).toBe("pass");
  expect(result.judge.answer).toBe("pass");
});

test("a check not enabled for the model is the inspector's: the model is not asked", async () => {
  const before = vision.requests.length;
  const res = await run(CLEAN, ["layout-not-broken"]);
  const [result] = res.body.results;
  expect(result.verdict).toBe("pass");
  expect(result.judge).toBeUndefined();
  expect(vision.requests.length).toBe(before);
});

test("ASSAY_VISION_MIN_AGREEMENT enables the checks the stored evaluation of this model and prompt measured at or above it", async () => {
  const file = join(server.dataDir, "judge-evaluation.json");
  const figures = (agreement: number) => ({
    rows: 20,
    labels: { scored: 20, agreed: Math.round(agreement / 5), agreement, falseFails: 0, misses: 0 },
    inspector: { compared: 20, agreed: 20, agreement: 100 },
    needsReview: 0,
    errors: 0,
    latencyP50Ms: 800,
    tokens: { prompt: 1000, completion: 100, total: 1100 },
  });
  const evaluation = (model: string, promptVersion: string) => ({
    model,
    promptVersion,
    evaluatedAt: new Date().toISOString(),
    corpora: ["real-world"],
    checks: { "layout-not-broken": figures(95), "cta-visible": figures(85) },
  });
  const asked = async (check: string) => {
    const before = vision.requests.length;
    vision.script.push({ verdict: "pass", reasoning: "Fine.", findings: [] });
    const [result] = (await run(CLEAN, [check])).body.results;
    vision.script.length = 0;
    return { asked: vision.requests.length > before, judged: result.judge !== undefined };
  };
  try {
    writeFileSync(file, JSON.stringify(evaluation("test-vision", PROMPT_VERSION)));
    expect(await asked("layout-not-broken")).toEqual({ asked: true, judged: true });
    expect(await asked("cta-visible")).toEqual({ asked: false, judged: false });
    // Measured for another prompt, or another model: it says nothing about this one.
    writeFileSync(file, JSON.stringify(evaluation("test-vision", "an older prompt")));
    expect(await asked("layout-not-broken")).toEqual({ asked: false, judged: false });
    writeFileSync(file, JSON.stringify(evaluation("another-model", PROMPT_VERSION)));
    expect(await asked("layout-not-broken")).toEqual({ asked: false, judged: false });
  } finally {
    rmSync(file, { force: true });
  }
});

test("an unparseable answer is an error row, refunded, never a guess; its tokens are still recorded", async () => {
  vision.script.push({
    content: "I think it looks fine?",
    usage: { prompt_tokens: 900, completion_tokens: 7, total_tokens: 907 },
  });
  const res = await run();
  const [result] = res.body.results;
  expect(result.verdict).toBe("error");
  expect(result.reason).toContain("not JSON");
  expect(result.judge.answer).toBeUndefined();
  expect(result.judge.usage.totalTokens).toBe(907);
  expect(res.body.credits.refunded).toBe(res.body.credits.charged);
});

test("a failing endpoint is retried a bounded number of times, then an error row", async () => {
  const before = vision.requests.length;
  vision.script.push({ status: 500 }, { status: 500 }, { status: 500 });
  const res = await run();
  expect(res.body.results[0].verdict).toBe("error");
  expect(res.body.results[0].reason).toContain("did not answer");
  expect(vision.requests.length - before).toBe(2); // one try and one retry
  expect(res.body.credits.net).toBe(0);
  vision.script.length = 0;
});

test("a model that does not answer within ASSAY_VISION_TIMEOUT_SECONDS (nor on its retry) is an error row, refunded", async () => {
  const slow = visionModel();
  const timing = await startServer({
    ASSAY_VISION_BASE_URL: slow.baseURL,
    ASSAY_VISION_MODEL: "test-vision",
    ASSAY_VISION_CHECKS: "all",
    ASSAY_VISION_TIMEOUT_SECONDS: "1",
  });
  try {
    slow.script.push({ hang: true }, { hang: true });
    const key = (await timing.signup()).apiKey;
    const res = await timing.api("POST", "/api/jobs", { key, body: htmlJob(CLEAN, ["no-horizontal-overflow"]) });
    const [result] = res.body.results;
    expect(result.verdict).toBe("error");
    expect(result.reason).toContain("The vision model did not answer");
    expect(slow.requests).toHaveLength(2);
    expect(res.body.credits.net).toBe(0);
  } finally {
    await timing.stop();
    slow.stop();
  }
});

test("ASSAY_VISION_CHECKS naming a check that is not visual stops the start, naming it", async () => {
  await expect(
    startServer({
      ASSAY_VISION_BASE_URL: vision.baseURL,
      ASSAY_VISION_CHECKS: "layout-not-broken,page-title",
    }),
  ).rejects.toThrow("ASSAY_VISION_CHECKS: page-title is not a visual check");
});
