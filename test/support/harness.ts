import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteLog, REPLICA_FILE, SQLITE_LOG_FILE, type Assay } from "../../src/app";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import type { StoredEvent, StreamWrite } from "../../src/store/event-log";
import { fromRow, type EventRow } from "../../src/store/event-row";
import { loadConfig } from "../../src/config";
import { startAssay } from "../../src/runtime";
import { checkHttpBody } from "./contracts";
import { errorEntry, type ErrorCode } from "../../src/errors/catalog";

export const ROOT = join(import.meta.dir, "..", "..");

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  baseUrl: string;
  smtpPort: number;
  dataDir: string;
  assay: Assay;
  env: Record<string, string>;
  api<T = any>(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  signup(email?: string): Promise<{
    apiKey: string;
    keyId: string;
    customerId: string;
    orgCode: string;
    email: string;
    billing: { provider: string; ready: boolean; plan: string | null; code: string | null; message: string };
  }>;
  stop(): Promise<void>;
}

let counter = 0;

/**
 * Reads a server's SQLite file (its log, or on PostgreSQL its replica) on a connection of the test's own, as an
 * operator's sqlite3 would: the server's own log is not part of what it offers.
 */
export function readNodeFile<T>(s: Pick<TestServer, "dataDir" | "env">, read: (db: Database) => T): T {
  const db = new Database(join(s.dataDir, s.env.ASSAY_DATABASE_URL ? REPLICA_FILE : SQLITE_LOG_FILE), {
    readonly: true,
  });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Every event a server's log holds, in order. */
export const eventsOf = (s: Pick<TestServer, "dataDir" | "env">): StoredEvent[] =>
  readNodeFile(s, (db) =>
    db
      .query<EventRow, []>("SELECT * FROM events ORDER BY position")
      .all()
      .map((r) => fromRow<AssayEvent>(r)),
  );
export const eventCount = (s: Pick<TestServer, "dataDir" | "env">) => eventsOf(s).length;

/**
 * Appends to a SQLite server's log on a connection of the test's own, with its projections, as another process on
 * the data directory would (an older build, a tamperer): the running server reads it at its next request.
 */
export async function appendTo(
  s: Pick<TestServer, "dataDir">,
  writes: StreamWrite[],
  metadata: EventMetadata,
): Promise<StoredEvent[]> {
  const log = openSqliteLog(s.dataDir);
  try {
    return await log.append(writes, metadata);
  } finally {
    await log.close();
  }
}

/** Fails with the whole answer unless it is this status with this error code. */
const ERROR_FIELDS = new Set(["code", "title", "message", "developerMessage", "details", "requestId"]);

/**
 * A catalogued refusal: the status and code, the code's status in the error table, the body of spec section 7
 * plus requestId (5xx add retryable) with every text field filled, requestId as in the header, JSON.
 */
export function expectError(res: ApiResponse, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code)
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  expect(errorEntry(code as ErrorCode).status).toBe(status);
  const body = res.body;
  for (const field of Object.keys(body))
    expect(ERROR_FIELDS.has(field) || (status >= 500 && field === "retryable")).toBe(true);
  for (const field of ["title", "message", "developerMessage", "requestId"]) {
    expect(typeof body[field]).toBe("string");
    expect(body[field].length).toBeGreaterThan(0);
  }
  expect(body.requestId).toBe(res.headers.get("x-request-id"));
  if ("details" in body) {
    expect(typeof body.details).toBe("object");
    expect(Array.isArray(body.details)).toBe(false);
  }
  expect(res.headers.get("content-type")).toContain("application/json");
}

export const uniqueEmail = (tag = "user") => `${tag}-${Date.now()}-${counter++}@example.com`;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "assay-test-"));
}

/** Data directories for one test file: `next` makes one, `removeAll` (in afterAll) removes every one made. */
export function scratchDirs(): { next(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    next() {
      const dir = tempDataDir();
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Requests to a server at baseUrl, each response checked against its operation's output schema. */
function apiAt(baseUrl: string): TestServer["api"] {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    checkHttpBody(method, path, res.status, parsed);
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
}

const signupAt =
  (api: TestServer["api"]): TestServer["signup"] =>
  async (email = uniqueEmail()) => {
    const res = await api("POST", "/api/signup", { body: { email } });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

/**
 * Tests open many organizations, sessions and device sign-ins from 127.0.0.1, so the per-client-address limits are
 * lifted unless a test sets them; each has its own tests (test/account/signup-limit.test.ts, test/service/address-limits.test.ts,
 * test/device/device.test.ts, test/session/oidc.test.ts).
 */
const UNLIMITED_ADDRESS = {
  ASSAY_SIGNUPS_PER_ADDRESS: "100000",
  ASSAY_SIGNIN_LINKS_PER_CLIENT: "100000",
  ASSAY_SIGNINS_PER_CLIENT: "100000",
  ASSAY_DEVICE_CODES_PER_ADDRESS: "100000",
};

/** The real app (real SQLite file, real Chromium when a job renders) on an ephemeral port with a fresh data directory. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = extraEnv.DATA_DIR ?? tempDataDir();
  const env = {
    DATA_DIR: dataDir,
    PORT: "0",
    SMTP_PORT: "0",
    ASSAY_BROWSER_POOL_SIZE: "1",
    ...UNLIMITED_ADDRESS,
    ...extraEnv,
  };
  const config = loadConfig({ ...process.env, ...env });
  // Browsers start with the first job that renders, so a test of an operation that needs none runs without Chromium.
  const running = await startAssay(config, { warmBrowsers: false });
  const assay = running.assay;
  const baseUrl = `http://127.0.0.1:${running.httpPort}`;
  assay.config.publicBaseUrl = baseUrl;
  const api = apiAt(baseUrl);
  return {
    baseUrl,
    smtpPort: running.smtpPort,
    dataDir,
    assay,
    env,
    api,
    signup: signupAt(api),
    async stop() {
      await running.stop();
      if (!extraEnv.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `assay serve` as its own process, as an operator runs it: killed (SIGKILL) and started again by the crash tests. */
export interface ServerProcess extends Pick<TestServer, "baseUrl" | "smtpPort" | "dataDir" | "api" | "signup"> {
  /** What the server wrote to stdout and stderr so far. */
  log(): string;
  /** Sends the signal (SIGKILL by default) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code (null when a signal ended it) once the process ends on its own (a failpoint). */
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Starts `assay serve` in a subprocess on dataDir (ports chosen by the system, one warm browser, private targets
 * allowed, `env` on top) and resolves once it says it listens; rejects with its log if it stops before that. `root`
 * is the source tree it runs from: this repository's, or an earlier version's (older-server.ts).
 */
export async function spawnServer(
  dataDir: string,
  env: Record<string, string> = {},
  root = ROOT,
): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, join(root, "src", "main.ts"), "serve"], {
    cwd: root,
    env: cliEnv({
      DATA_DIR: dataDir,
      PORT: "0",
      SMTP_PORT: "0",
      ASSAY_BROWSER_POOL_SIZE: "1",
      ...UNLIMITED_ADDRESS,
      ASSAY_ALLOW_PRIVATE_TARGETS: "1",
      ...env,
    }),
    stdout: "pipe",
    stderr: "pipe",
  });
  let log = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) log += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
  const exited = proc.exited.then(async (code) => {
    await drained;
    return { code: proc.signalCode ? null : code, signal: proc.signalCode ? String(proc.signalCode) : null };
  });
  let listening: RegExpExecArray | null = null;
  while (!(listening = /\(http (\d+), smtp (\d+) for/.exec(log))) {
    if (proc.exitCode !== null || proc.signalCode) throw new Error(`assay serve stopped before listening:\n${log}`);
    await Bun.sleep(20);
  }
  const baseUrl = `http://127.0.0.1:${listening[1]}`;
  const api = apiAt(baseUrl);
  return {
    baseUrl,
    smtpPort: Number(listening[2]),
    dataDir,
    api,
    signup: signupAt(api),
    log: () => log,
    async kill(signal = "SIGKILL") {
      proc.kill(signal);
      await exited;
    },
    exited,
  };
}

/** `assay browser-worker` as its own process: the endpoint it printed, and how to stop it. */
export interface BrowserWorkerProcess {
  endpoint: string;
  /** The port it listens on (a worker started again on it, with the same --ws-path, has the same endpoint). */
  port: number;
  /** What the worker wrote to stderr so far. */
  log(): string;
  /** Sends the signal (SIGKILL by default) to the worker's process group and waits until the worker is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * Starts `assay browser-worker` (its own process group, so a kill takes the whole worker) and resolves with the
 * endpoint it prints; rejects with its log if it stops before printing one. Its Chromium, in a process group of its
 * own (Playwright launches it detached), ends when the worker does: its pipe to the worker closes.
 */
export async function spawnBrowserWorker(args: string[] = []): Promise<BrowserWorkerProcess> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "browser-worker", ...args], {
    cwd: ROOT,
    env: cliEnv({}),
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  const drain = async (stream: ReadableStream<Uint8Array>, into: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) into(decoder.decode(chunk, { stream: true }));
  };
  const drained = Promise.all([drain(proc.stdout, (t) => (stdout += t)), drain(proc.stderr, (t) => (stderr += t))]);
  const exited = proc.exited.then(async (code) => {
    await drained;
    return proc.signalCode ? null : code;
  });
  let printed: RegExpExecArray | null = null;
  while (!(printed = /^(wss?:\/\/[^\s:]+:(\d+)\/\S*)$/m.exec(stdout))) {
    if (proc.exitCode !== null || proc.signalCode)
      throw new Error(`assay browser-worker stopped before printing its endpoint (exit ${proc.exitCode}):\n${stderr}`);
    await Bun.sleep(20);
  }
  return {
    endpoint: printed[1]!,
    port: Number(printed[2]),
    log: () => stderr,
    async kill(signal = "SIGKILL") {
      if (proc.exitCode === null && !proc.signalCode) process.kill(-proc.pid, signal);
      await exited;
    },
    exited,
  };
}

/**
 * The CLI's environment: the test's, then `env`. Bun's transpiler cache stays where the test's own is, so a test that
 * gives the CLI another HOME neither fills it with the cache nor pays for transpiling again.
 */
const cliEnv = (env: Record<string, string>) => ({
  ...process.env,
  BUN_RUNTIME_TRANSPILER_CACHE_PATH:
    process.env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ?? join(homedir(), ".bun", "install", "cache", "@t@"),
  ...env,
});

/** The server's binary (`assay serve` and the operator commands), run from its source as `npm start` does. */
const SERVER_CLI = [process.execPath, join(ROOT, "src", "main.ts")];
/**
 * The client package's `assay` (packages/cli), run from its source by Bun; test/cli/client-package.test.ts runs its
 * packed build under Node.
 */
const CLIENT_CLI = [process.execPath, join(ROOT, "packages", "cli", "src", "main.ts")];

type CliEnd = { code: number; stdout: string; stderr: string };

async function runCommand(
  command: string[],
  env: Record<string, string>,
  cwd: string,
  stdin?: string,
): Promise<CliEnd> {
  const proc = Bun.spawn(command, {
    cwd,
    env: cliEnv(env),
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Runs the server's binary as a subprocess, as an operator would (in `cwd`, the repository by default). */
export const runCli = (args: string[], env: Record<string, string>, cwd = ROOT): Promise<CliEnd> =>
  runCommand([...SERVER_CLI, ...args], env, cwd);

/**
 * The client's environment for a test: the server and key, its config in `work`, and GitHub Actions' variables
 * (which the client reads) empty whatever the machine running the test has.
 */
export const clientEnv = (baseUrl: string, apiKey: string, work: string): Record<string, string> => ({
  XDG_CONFIG_HOME: join(work, "config"),
  ASSAY_API_KEY: apiKey,
  ASSAY_BASE_URL: baseUrl,
  GITHUB_OUTPUT: "",
  GITHUB_STEP_SUMMARY: "",
  GITHUB_HEAD_REF: "",
  GITHUB_REF_NAME: "",
  GITHUB_SHA: "",
});

/** Runs the client as a subprocess, as a person or CI would (in `cwd`), `stdin` written to its standard input. */
export const runClient = (args: string[], env: Record<string, string>, cwd = ROOT, stdin?: string): Promise<CliEnd> =>
  runCommand([...CLIENT_CLI, ...args], env, cwd, stdin);

/** A CLI subprocess still running: read its output as it comes (waitFor), then its end (done). */
export interface RunningCli {
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  done(): Promise<CliEnd>;
}

/** Starts the client as a subprocess without waiting for it: for commands a test answers while they run (login). */
export function startClient(args: string[], env: Record<string, string>, cwd = ROOT): RunningCli {
  const proc = Bun.spawn([...CLIENT_CLI, ...args], {
    cwd,
    env: cliEnv(env),
    stdout: "pipe",
    stderr: "pipe",
  });
  let stdout = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stdout) stdout += decoder.decode(chunk, { stream: true });
  })();
  const stderr = new Response(proc.stderr).text();
  return {
    async waitFor(pattern, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = pattern.exec(stdout);
        if (found) return found;
        if (Date.now() > until || proc.exitCode !== null)
          throw new Error(`no ${pattern} in the CLI's output: ${stdout} ${await stderr}`);
        await Bun.sleep(50);
      }
    },
    async done() {
      const code = await proc.exited;
      await reading;
      return { code, stdout, stderr: await stderr };
    },
  };
}

/** A small page wrapped in a static_html job body. */
export function htmlJob(html: string, validations: unknown[] | undefined, extra: Record<string, unknown> = {}) {
  return {
    type: "static_html",
    html,
    baseUrl: "https://example.com/",
    ...(validations ? { validations } : {}),
    ...extra,
  };
}
