import { createAssay } from "../app";
import { createHttpApp } from "../http/app";
import { loadConfig } from "../config";

/** Serves HTTP (and, as they arrive, the SMTP inbox) from one process until SIGINT/SIGTERM. */
export async function serve(): Promise<number> {
  const config = loadConfig();
  const assay = createAssay(config);
  await assay.pool.warm();
  const app = createHttpApp(assay).listen({ port: config.port, maxRequestBodySize: 16 * 1024 * 1024 });
  console.log(`assay listening on ${config.publicBaseUrl} (port ${app.server?.port}), data in ${config.dataDir}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await app.stop();
  await assay.close();
  return 0;
}
