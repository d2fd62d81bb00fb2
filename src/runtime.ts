import { createAssay, type Assay } from "./app";
import type { Config } from "./config";
import { createHttpApp } from "./http/app";
import { SmtpInbox } from "./inbox/smtp-inbox";
import { MAX_RUN_BODY_BYTES } from "./contracts/limits";

export interface RunningAssay {
  assay: Assay;
  httpPort: number;
  smtpPort: number;
  stop(): Promise<void>;
}

/**
 * One process, everything in it: recovery of the webpage jobs a stop cut off (before HTTP listens), the browser
 * pool (warmed, unless `warmBrowsers` is false: then the first job that renders starts it, and a process that
 * never renders never starts Chromium), HTTP, the SMTP inbox, recovery of email jobs left pending by a restart,
 * and the background work (NodeDuties): the heartbeat, the expiry sweep, the monthly grant's sweep, the sweep
 * of this node's own jobs that nothing in it runs and, where several nodes share a PostgreSQL log, the closing of
 * what a silent node left running.
 */
export async function startAssay(config: Config, { warmBrowsers = true } = {}): Promise<RunningAssay> {
  const assay = await createAssay(config);
  // Before HTTP listens: every webpage job this node was running was cut off by its last stop.
  const started = performance.now();
  const interrupted = await assay.node.recoverOwnWebJobs();
  if (interrupted > 0) {
    console.log(
      `Closed ${interrupted} webpage job(s) cut off by the last stop as interrupted, every credit refunded (${Math.round(performance.now() - started)} ms).`,
    );
  }
  if (!config.mailRelayUrl)
    console.log("No mail relay configured (ASSAY_MAIL_RELAY_URL): sign-in links are written to this log.");
  if (warmBrowsers) {
    // The server still starts: the catalog, accounts and keys need no browser, and jobs answer SERVICE_UNAVAILABLE until one launches.
    // warm()'s refusal names each browser or worker and why it failed.
    await assay.pool
      .warm()
      .catch((e: Error) =>
        console.error(`${e.message.split("\n")[0]}; jobs answer SERVICE_UNAVAILABLE until a browser can be had.`),
      );
  }
  // The largest body any route takes (a run's); each route's own cap is checked as its body is parsed.
  const http = createHttpApp(assay).listen({ port: config.port, maxRequestBodySize: MAX_RUN_BODY_BYTES });
  const inbox = new SmtpInbox(config, assay.jobs);
  const smtpPort = await inbox.start(config.smtpPort);
  await assay.node.recoverOwnEmailJobs();
  // The monthly grant: swept at start and then periodically, so a quiet organization gets its period too (requests also grant lazily).
  if (config.grantSweepSeconds > 0)
    await assay.node.grantSweepNow().catch((e) => console.error("monthly grant sweep failed:", e));
  const background = assay.node.startBackground();
  return {
    assay,
    httpPort: http.server!.port!,
    smtpPort,
    async stop() {
      await background.stop();
      await inbox.stop();
      await http.stop();
      await assay.close();
    },
  };
}
