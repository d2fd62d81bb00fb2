import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fmtInt, fmtMs, fmtRatio, nowMs, summary, type Row } from "./support";
import { JOB_BODY, type BenchApp } from "./bench-app";

export interface McpBenchResult {
  /** tools/call list_validations through the SDK client vs GET /api/validations with fetch. */
  list: {
    mcp: ReturnType<typeof summary>;
    http: ReturnType<typeof summary>;
    raw: ReturnType<typeof summary>;
    mcpBytes: number;
    httpBytes: number;
  };
  /** tools/call run_job vs POST /api/jobs, the bench's three-size web-essentials job. */
  job: { mcp: ReturnType<typeof summary>; http: ReturnType<typeof summary> };
}

/**
 * The same request over MCP and over plain HTTP, alternating so both see the same machine state. MCP goes
 * through the official SDK's Client and StreamableHTTPClientTransport, connected once (initialize is not
 * timed): each tools/call is one POST /mcp, answered as JSON by a stateless server that builds its tool
 * server per request. HTTP is a bare fetch. Both end when the body is read and parsed.
 */
export async function benchMcp(
  app: BenchApp,
  opts = { listRuns: 200, jobRuns: 20, warmup: 5 },
): Promise<McpBenchResult> {
  const apiKey = await app.newApiKey();
  const client = new Client({ name: "assay-bench", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  try {
    let mcpBytes = 0;
    let httpBytes = 0;
    const mcpList = async () => {
      const started = nowMs();
      const result = (await client.callTool({ name: "list_validations", arguments: {} })) as CallToolResult;
      const ms = nowMs() - started;
      if (result.isError) throw new Error(`list_validations refused: ${JSON.stringify(result.structuredContent)}`);
      mcpBytes = JSON.stringify(result).length;
      return ms;
    };
    const httpList = async () => {
      const started = nowMs();
      const res = await fetch(`${app.baseUrl}/api/validations`);
      const text = await res.text();
      JSON.parse(text);
      const ms = nowMs() - started;
      if (res.status !== 200) throw new Error(`GET /api/validations answered ${res.status}`);
      httpBytes = text.length;
      return ms;
    };
    // The same tools/call as one bare fetch (no SDK client): what the server side costs on its own.
    const rawBody = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_validations", arguments: {} },
    });
    const rawList = async () => {
      const started = nowMs();
      const res = await fetch(`${app.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: rawBody,
      });
      const parsed = JSON.parse(await res.text());
      const ms = nowMs() - started;
      if (res.status !== 200 || parsed.result?.isError) throw new Error(`raw tools/call answered ${res.status}`);
      return ms;
    };
    const mcpJob = async () => {
      const started = nowMs();
      const result = (await client.callTool({ name: "run_job", arguments: JOB_BODY }, undefined, {
        timeout: 120_000,
      })) as CallToolResult;
      const ms = nowMs() - started;
      const job = result.structuredContent as { status?: string; code?: string } | undefined;
      if (result.isError || job?.status !== "completed")
        throw new Error(`run_job over MCP: ${JSON.stringify(job).slice(0, 300)}`);
      return ms;
    };
    const httpJob = async () => (await app.runJob(apiKey)).ms;

    for (let i = 0; i < opts.warmup; i++) {
      await mcpList();
      await httpList();
      await rawList();
    }
    await mcpJob();
    await httpJob();
    const times = {
      mcpList: [] as number[],
      httpList: [] as number[],
      rawList: [] as number[],
      mcpJob: [] as number[],
      httpJob: [] as number[],
    };
    for (let i = 0; i < opts.listRuns; i++) {
      if (i % 2) {
        times.httpList.push(await httpList());
        times.mcpList.push(await mcpList());
      } else {
        times.mcpList.push(await mcpList());
        times.httpList.push(await httpList());
      }
      times.rawList.push(await rawList());
    }
    for (let i = 0; i < opts.jobRuns; i++) {
      if (i % 2) {
        times.httpJob.push(await httpJob());
        times.mcpJob.push(await mcpJob());
      } else {
        times.mcpJob.push(await mcpJob());
        times.httpJob.push(await httpJob());
      }
    }
    return {
      list: {
        mcp: summary(times.mcpList),
        http: summary(times.httpList),
        raw: summary(times.rawList),
        mcpBytes,
        httpBytes,
      },
      job: { mcp: summary(times.mcpJob), http: summary(times.httpJob) },
    };
  } finally {
    await client.close();
  }
}

/** The bench table's rows: MCP beside the same HTTP request as the baseline. */
export function mcpRows(r: McpBenchResult): Row[] {
  return [
    {
      name: `tools/call list_validations over MCP, p50 (n=${r.list.mcp.n})`,
      value: fmtMs(r.list.mcp.p50),
      baseline: `${fmtMs(r.list.http.p50)} GET /api/validations`,
      ratio: fmtRatio(r.list.mcp.p50 / r.list.http.p50),
      target: "-",
    },
    {
      name: `tools/call list_validations over MCP, p95 (n=${r.list.mcp.n})`,
      value: fmtMs(r.list.mcp.p95),
      baseline: `${fmtMs(r.list.http.p95)} GET /api/validations`,
      ratio: fmtRatio(r.list.mcp.p95 / r.list.http.p95),
      target: "-",
    },
    {
      name: `  same tools/call as a bare POST /mcp (no SDK client), p50`,
      value: fmtMs(r.list.raw.p50),
      baseline: `${fmtMs(r.list.http.p50)} GET /api/validations`,
      ratio: fmtRatio(r.list.raw.p50 / r.list.http.p50),
      target: "- (the server's own share)",
    },
    {
      name: `tools/call run_job over MCP (bench job), p50 (n=${r.job.mcp.n})`,
      value: fmtMs(r.job.mcp.p50),
      baseline: `${fmtMs(r.job.http.p50)} POST /api/jobs`,
      ratio: fmtRatio(r.job.mcp.p50 / r.job.http.p50),
      target: "-",
    },
    {
      name: `tools/call run_job over MCP (bench job), p95 (n=${r.job.mcp.n})`,
      value: fmtMs(r.job.mcp.p95),
      baseline: `${fmtMs(r.job.http.p95)} POST /api/jobs`,
      ratio: fmtRatio(r.job.mcp.p95 / r.job.http.p95),
      target: "-",
    },
  ];
}

export function mcpNotes(r: McpBenchResult): string[] {
  return [
    `- MCP: the official SDK's Client over StreamableHTTPClientTransport with a Bearer key, connected once (initialize untimed); each tools/call is one POST /mcp ` +
      `to a stateless server answering JSON, which authenticates, builds its tool server and transport for the request, and calls the same services as the HTTP route. ` +
      `Runs alternate MCP and HTTP. list_validations answers ${fmtInt(r.list.mcpBytes)} characters (summary, structuredContent and the same JSON as text) ` +
      `against ${fmtInt(r.list.httpBytes)} for GET /api/validations; min/mean/max MCP ${fmtMs(r.list.mcp.min)}/${fmtMs(r.list.mcp.mean)}/${fmtMs(r.list.mcp.max)}, ` +
      `HTTP ${fmtMs(r.list.http.min)}/${fmtMs(r.list.http.mean)}/${fmtMs(r.list.http.max)}; run_job mean MCP ${fmtMs(r.job.mcp.mean)}, HTTP ${fmtMs(r.job.http.mean)}.`,
  ];
}
