import type { Command } from "commander";
import type { BrowserServer } from "playwright-core";
import { action, UsageError } from "../program";

/**
 * `assay browser-worker`: a Chromium for other nodes' capture pools (ASSAY_BROWSER_ENDPOINTS), served over
 * Playwright's own browser-server protocol (playwright-core's launchServer). Chromium is launched exactly as the local
 * pool launches it (LAUNCH_OPTIONS: headless, CHROMIUM_ARGS), so it has no network of its own: the node routes every
 * request its pages make through its network guard. No event log, no service: a worker is only a browser.
 */

/** What the worker's exit code says (docs/operating.md); bad usage is 2, as for every command. */
export const WORKER_EXIT = { stopped: 0, failed: 1, usage: 2 } as const;

const EXIT_HELP = `
Prints the endpoint (ws://host:port/path) on one line on stdout once Chromium is up; name it in a node's
ASSAY_BROWSER_ENDPOINTS. Anyone who can open the endpoint drives the browser: keep the worker on a private network.
Exit codes: 0 stopped by SIGINT or SIGTERM (Chromium closed), 1 Chromium could not be launched or exited on its own,
or the port could not be listened on, 2 bad usage.`;

interface WorkerOptions {
  host: string;
  port: string;
  wsPath?: string;
}

export function registerBrowserWorkerCommand(program: Command): void {
  program
    .command("browser-worker")
    .description("run a Chromium that nodes render in (ASSAY_BROWSER_ENDPOINTS); prints its endpoint")
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .option("--port <port>", "the port to listen on (0: one the system picks)", "0")
    .option(
      "--ws-path <path>",
      "the endpoint's path, e.g. /worker-a (default: a random one, which is then the endpoint's secret)",
    )
    .addHelpText("after", EXIT_HELP)
    .action(action((opts: WorkerOptions) => runBrowserWorker(opts)));
}

async function runBrowserWorker(opts: WorkerOptions): Promise<number> {
  const port = Number(opts.port);
  if (!/^\d+$/.test(opts.port) || port > 65535) throw new UsageError(`--port ${opts.port} is not a port (0 to 65535)`);
  if (opts.wsPath !== undefined && !/^\/[A-Za-z0-9._~\-/]*$/.test(opts.wsPath)) {
    throw new UsageError(
      `--ws-path ${opts.wsPath} is not a path (it starts with / and holds letters, digits, '.', '_', '~', '-' or '/')`,
    );
  }
  // Loaded when the command runs: the other commands (and --version) start without playwright-core.
  const [{ chromium }, { findChromium, LAUNCH_OPTIONS }] = await Promise.all([
    import("playwright-core"),
    import("../../capture/chromium-launch"),
  ]);
  const executablePath = findChromium(process.env.CHROMIUM_PATH || undefined);
  if (!executablePath) {
    console.error("No Chromium found: set CHROMIUM_PATH, or run `npm start`, which installs Debian's chromium.");
    return WORKER_EXIT.failed;
  }
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({
      executablePath,
      ...LAUNCH_OPTIONS,
      host: opts.host,
      port,
      ...(opts.wsPath ? { wsPath: opts.wsPath } : {}),
    });
  } catch (e) {
    console.error(`The browser worker could not start: ${(e as Error).message.split("\n")[0]}`);
    // launchServer leaves the Chromium it launched running when it cannot listen; ending this process ends it (its pipe closes).
    process.exit(WORKER_EXIT.failed);
  }
  console.log(server.wsEndpoint());
  const ended = await new Promise<"signal" | "chromium">((resolve) => {
    process.once("SIGINT", () => resolve("signal"));
    process.once("SIGTERM", () => resolve("signal"));
    server.once("close", () => resolve("chromium"));
  });
  if (ended === "chromium") {
    console.error("Chromium exited on its own; the worker stops (nodes retry it once it is started again).");
    return WORKER_EXIT.failed;
  }
  await server.close();
  return WORKER_EXIT.stopped;
}
