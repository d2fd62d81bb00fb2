import { loadConfig } from "../config";
import { startAssay } from "../runtime";

/** Serves HTTP and the SMTP inbox from one process until SIGINT/SIGTERM. */
export async function serve(): Promise<number> {
  const config = loadConfig();
  const running = await startAssay(config);
  console.log(
    `assay listening on ${config.publicBaseUrl} (http ${running.httpPort}, smtp ${running.smtpPort} for @${config.inboxDomain}), data in ${config.dataDir}`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await running.stop();
  return 0;
}
