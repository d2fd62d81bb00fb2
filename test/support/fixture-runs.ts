import nodemailer from "nodemailer";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import type { RecordedExample } from "../../src/catalog/examples";
import { ROOT, htmlJob, type TestServer } from "./harness";

/**
 * Running a check's own fixtures as real jobs through the API: what test/checks/web-checks.test.ts,
 * test/checks/email-checks.test.ts and test/checks/email-visual.test.ts assert on, and what scripts/examples.ts records as the
 * catalog's examples (src/catalog/examples.json), so the two cannot differ.
 */

export const FIXTURE_DIRS = {
  web: join(ROOT, "test", "fixtures", "web"),
  email: join(ROOT, "test", "fixtures", "email"),
  "email-visual": join(ROOT, "test", "fixtures", "email-visual"),
} as const;
export type FixtureFamily = keyof typeof FIXTURE_DIRS;
export type FixtureVerdict = "pass" | "fail";

/** A fixture folder's params.json, when the check takes parameters. */
export function fixtureParameters(family: FixtureFamily, id: string): Record<string, unknown> | undefined {
  const file = join(FIXTURE_DIRS[family], id, "params.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

/** The check as a job's validations[] entry: with its params.json when it has one. */
export const fixtureEntry = (family: FixtureFamily, id: string) => {
  const parameters = fixtureParameters(family, id);
  return parameters ? { id, parameters } : id;
};

/**
 * The web fixtures' own server on 127.0.0.1: a fixture folder's `server/` files under /<check id>/. Test-only
 * controls: `?delay=<ms>` answers late, `?nohead` answers HEAD with 405. `log` receives "METHOD /path" per request.
 */
export function serveWebFixtureAssets(log: string[] = []) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      log.push(`${req.method} ${url.pathname}`);
      const delay = Number(url.searchParams.get("delay") ?? 0);
      if (delay > 0) await Bun.sleep(Math.min(delay, 5_000));
      if (req.method === "HEAD" && url.searchParams.has("nohead")) return new Response(null, { status: 405 });
      const [, id, ...rest] = decodeURIComponent(url.pathname).split("/");
      const root = join(FIXTURE_DIRS.web, id ?? "", "server");
      const file = normalize(join(root, ...rest));
      if (!id || !file.startsWith(`${root}/`) || !existsSync(file) || !statSync(file).isFile())
        return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
  return { server, base: (id: string) => `http://127.0.0.1:${server.port}/${id}` };
}

/** The asset server's address in what a check reported, as the fixture writes it: `{{BASE}}`. */
export const withoutAssetBase = (text: string | undefined, base: string) => text?.replaceAll(base, "{{BASE}}");

/**
 * A web fixture as a static_html job body: the check alone, with its params.json; a fixture with a `server/`
 * folder has `{{BASE}}` replaced by the asset server and is rendered at that address.
 */
export function webFixtureJob(id: string, verdict: FixtureVerdict, assetBase: string) {
  let html = readFileSync(join(FIXTURE_DIRS.web, id, `${verdict}.html`), "utf8");
  const extra: Record<string, unknown> = {};
  if (existsSync(join(FIXTURE_DIRS.web, id, "server"))) {
    html = html.replaceAll("{{BASE}}", assetBase);
    extra.baseUrl = `${assetBase}/`;
  }
  return htmlJob(html, [fixtureEntry("web", id)], extra);
}

/** An email job until it is no longer pending (verbose: the visual checks' captures). */
export async function settledEmailJob(server: TestServer, apiKey: string, jobId: string) {
  for (let i = 0; i < 1200; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${jobId}&detail=verbose`, { key: apiKey });
    if (res.body.jobs[0].status !== "pending") return res.body.jobs[0];
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

/** Creates an email job (the check alone with its params.json, unless `validations` says otherwise), delivers the fixture's bytes over SMTP, waits for the result. */
export function runEmailFixture(
  server: TestServer,
  apiKey: string,
  family: "email" | "email-visual",
  id: string,
  verdict: FixtureVerdict,
  validations: unknown[] = [fixtureEntry(family, id)],
) {
  return runEmailMessage(server, apiKey, readFileSync(join(FIXTURE_DIRS[family], id, `${verdict}.eml`)), validations);
}

/** Creates an email job of these validations, delivers the message's bytes over SMTP, waits for the result. */
export async function runEmailMessage(server: TestServer, apiKey: string, raw: Buffer, validations: unknown[]) {
  const created = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations } });
  if (created.status !== 200)
    throw new Error(
      `creating the job for ${JSON.stringify(validations)}: HTTP ${created.status} ${JSON.stringify(created.body)}`,
    );
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: server.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  await transport.sendMail({
    envelope: { from: "bounce@bounce.northwind.example", to: [created.body.testEmail] },
    raw,
  });
  return settledEmailJob(server, apiKey, created.body.jobId);
}

interface ResultRow {
  verdict: string;
  reason?: string;
  findings: Array<{ message: string; selector?: string; url?: string; text?: string }>;
}

/** What the catalog shows of a fixture's result: verdict, reason and the first findings (asset-server addresses as `{{BASE}}`). */
export function exampleOf(result: ResultRow, assetBase?: string): RecordedExample {
  const strip = (t: string | undefined) => (assetBase ? withoutAssetBase(t, assetBase) : t);
  return {
    verdict: result.verdict as RecordedExample["verdict"],
    ...(result.reason ? { reason: strip(result.reason)! } : {}),
    findings: result.findings.slice(0, 5).map((f) => ({
      message: strip(f.message)!,
      ...(f.selector ? { selector: f.selector } : {}),
      ...(f.url ? { url: strip(f.url)! } : {}),
      ...(f.text ? { text: strip(f.text)! } : {}),
    })),
  };
}

/** The recorded example's verdict and reason beside the run's: what the fixture tests compare. */
export function verdictAndReason(example: Pick<RecordedExample, "verdict" | "reason"> | undefined) {
  return example ? { verdict: example.verdict, reason: example.reason } : undefined;
}
