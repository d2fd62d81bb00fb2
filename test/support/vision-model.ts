/**
 * A local stand-in for a hosted vision model, speaking the OpenAI chat-completions protocol: each request is answered
 * by the next scripted answer (structured output as the message's content, with usage tokens), or an HTTP error.
 */
export interface ScriptedAnswer {
  status?: number;
  /** The verdict object the model answers with (sent as JSON), or raw content. */
  verdict?: "pass" | "fail";
  reasoning?: string;
  reason?: string;
  findings?: unknown[];
  content?: string;
  /** Never answer (until the server stops): a model that times out. */
  hang?: boolean;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export function visionModel() {
  const requests: any[] = [];
  const script: ScriptedAnswer[] = [];
  const hanging: Array<() => void> = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
      requests.push(await req.json());
      const next = script.shift() ?? { status: 500 };
      if (next.hang)
        return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response(null, { status: 499 }))));
      if (next.status)
        return Response.json({ error: { message: "scripted failure", type: "server_error" } }, { status: next.status });
      const { verdict, reasoning, reason, findings } = next;
      const content =
        next.content ?? JSON.stringify({ verdict, reasoning, ...(reason ? { reason } : {}), findings: findings ?? [] });
      return Response.json({
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: "test-vision",
        choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop" }],
        usage: next.usage ?? { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    },
  });
  return {
    baseURL: `http://127.0.0.1:${server.port}/v1`,
    requests,
    script,
    stop() {
      for (const answer of hanging.splice(0)) answer();
      server.stop(true);
    },
  };
}
