import { createAssay, type Assay } from "./app";
import type { Config } from "./config";
import { createHttpApp } from "./http/app";
import { SmtpInbox } from "./inbox/smtp-inbox";

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
 * the sweep that expires email jobs whose message never came, and the monthly grant's sweep.
 */
export async function startAssay(config: Config, { warmBrowsers = true } = {}): Promise<RunningAssay> {
  const assay = createAssay(config);
  // Before HTTP listens: every webpage job still running now was cut off by a process that stopped, none is this one's.
  const started = performance.now();
  const interrupted = await assay.jobs.recoverInterruptedJobs();
  if (interrupted > 0) {
    console.log(`Closed ${interrupted} webpage job(s) cut off by the last stop as interrupted, every credit refunded (${Math.round(performance.now() - started)} ms).`);
  }
  if (!config.mailRelayUrl) console.log("No mail relay configured (ASSAY_MAIL_RELAY_URL): sign-in links are written to this log.");
  if (warmBrowsers) {
    // The server still starts: the catalog, accounts and keys need no browser, and jobs answer SERVICE_UNAVAILABLE until one launches.
    await assay.pool.warm().catch((e: Error) => console.error(`Chromium could not be launched (CHROMIUM_PATH=${config.chromiumPath ?? "from PATH"}); jobs answer SERVICE_UNAVAILABLE until it can: ${e.message.split("\n")[0]}`));
  }
  const http = createHttpApp(assay).listen({ port: config.port, maxRequestBodySize: 16 * 1024 * 1024 });
  const inbox = new SmtpInbox(config, assay.jobs);
  const smtpPort = await inbox.start(config.smtpPort);
  await assay.jobs.recoverEmailJobs();
  // The monthly grant: swept at start and then periodically, so a quiet organization gets its period too (requests also grant lazily).
  const grantSweep = async () => {
    try {
      await assay.plans.sweep();
    } catch (e) {
      console.error("monthly grant sweep failed:", e);
    }
  };
  if (config.grantSweepSeconds > 0) await grantSweep();
  const grantSweeper = config.grantSweepSeconds > 0 ? setInterval(grantSweep, config.grantSweepSeconds * 1000) : null;
  // Sweep often enough that a job expires within a quarter of its window (every 5 s at most).
  const sweepMs = Math.min(5000, Math.max(200, config.emailWindowSeconds * 250));
  const sweeper = setInterval(() => void assay.jobs.expireOverdue().catch((e) => console.error("expiry sweep failed:", e)), sweepMs);
  return {
    assay,
    httpPort: http.server!.port!,
    smtpPort,
    async stop() {
      clearInterval(sweeper);
      if (grantSweeper) clearInterval(grantSweeper);
      await inbox.stop();
      await http.stop();
      await assay.close();
    },
  };
}
