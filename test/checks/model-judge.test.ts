import { afterAll, beforeAll, expect, test } from "bun:test";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/** A local stand-in for a hosted vision model, speaking the OpenAI chat-completions protocol. */
const requests: any[] = [];
const script: Array<{ status?: number; content?: string }> = [];
const vision = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
    requests.push(await req.json());
    const next = script.shift() ?? { status: 500 };
    if (next.status)
      return Response.json({ error: { message: "scripted failure", type: "server_error" } }, { status: next.status });
    return Response.json({
      id: `chatcmpl-${requests.length}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "test-vision",
      choices: [{ index: 0, message: { role: "assistant", content: next.content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  },
});

const PAGE = `<html lang="en"><head><title>T</title></head><body><h1>Hello</h1></body></html>`;
let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer({
    ASSAY_VISION_BASE_URL: `http://127.0.0.1:${vision.port}/v1`,
    ASSAY_VISION_MODEL: "test-vision",
    ASSAY_VISION_API_KEY: "sk-test",
    ASSAY_VISION_CHECKS: "no-horizontal-overflow",
  });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server.stop();
  vision.stop(true);
});

const run = () => server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(PAGE, ["no-horizontal-overflow"]) });

test("the model judge sends the capture, the judgment and a JSON schema, and its verdict is the result", async () => {
  script.push({
    content: JSON.stringify({
      verdict: "fail",
      reasoning: "The hero table runs off the right edge.",
      reason: "Shrink the hero table to 100% width",
      findings: [{ message: "table too wide", viewport: "mobile-sm" }],
    }),
  });
  const res = await run();
  expect(res.status).toBe(200);
  const [result] = res.body.results;
  expect(result.verdict).toBe("fail");
  expect(result.reason).toBe("Shrink the hero table to 100% width");
  expect(result.reasoning).toContain("judged by test-vision");
  expect(result.findings).toEqual([{ message: "table too wide", viewport: "mobile-sm" }]);

  const sent = requests.at(-1);
  expect(sent.model).toBe("test-vision");
  expect(sent.response_format.type).toBe("json_schema");
  expect(sent.response_format.json_schema.schema.required).toEqual(["verdict", "reasoning", "findings"]);
  const parts = sent.messages[1].content;
  expect(parts[0].text).toContain("Judgment:");
  expect(parts[0].text).toContain("Inspector measurements:");
  const images = parts.filter((p: any) => p.type === "image_url");
  expect(images).toHaveLength(1);
  expect(images[0].image_url.url).toStartWith("data:image/jpeg;base64,/9j/");
});

test("an unparseable answer is an error row, refunded, never a guess", async () => {
  script.push({ content: "I think it looks fine?" });
  const res = await run();
  const [result] = res.body.results;
  expect(result.verdict).toBe("error");
  expect(result.reason).toContain("not JSON");
  expect(res.body.credits.refunded).toBe(res.body.credits.charged);
});

test("a failing endpoint is retried a bounded number of times, then an error row", async () => {
  const before = requests.length;
  script.push({ status: 500 }, { status: 500 }, { status: 500 });
  const res = await run();
  expect(res.body.results[0].verdict).toBe("error");
  expect(res.body.results[0].reason).toContain("did not answer");
  expect(requests.length - before).toBe(2); // one try and one retry
  expect(res.body.credits.net).toBe(0);
  script.length = 0;
});
