import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "./config";
import { EventStore } from "./store/event-store";
import { eventTypes } from "../events";
import { installProjections } from "../projections";
import { NetworkGuard } from "./capture/network-guard";
import { BrowserPool, findChromium } from "./capture/browser-pool";
import { WebCaptureEngine } from "./capture/web-capture";
import { EmailCaptureEngine } from "./capture/email-capture";
import { AccountService } from "./services/accounts";
import { JobService } from "./services/jobs";
import { CaptureService } from "./services/captures";
import { CatalogService } from "./services/catalog";
import { FeedbackService } from "./services/feedback";
import { InspectorJudge } from "./judge/judge";
import { ModelJudge } from "./judge/model";
import { MailStore } from "./inbox/mail-store";
import type { ServiceContext } from "./services/context";

export interface Assay extends ServiceContext {
  pool: BrowserPool;
  accounts: AccountService;
  jobs: JobService;
  captures: CaptureService;
  catalog: CatalogService;
  feedback: FeedbackService;
  close(): Promise<void>;
}

export function openStore(dataDir: string): EventStore {
  mkdirSync(dataDir, { recursive: true });
  const store = new EventStore(join(dataDir, "assay.sqlite"), eventTypes);
  installProjections(store);
  return store;
}

/** Builds the whole service graph for one process: one store, one guard, one browser pool. */
export function createAssay(config: Config = loadConfig()): Assay {
  const store = openStore(config.dataDir);
  const guard = new NetworkGuard(config.allowPrivateTargets);
  const chromium = findChromium(config.chromiumPath);
  if (!chromium) throw new Error("No Chromium found: set CHROMIUM_PATH, or run `npm start`, which installs Debian's chromium.");
  const pool = new BrowserPool(chromium, config.browserPoolSize);
  const webCapture = new WebCaptureEngine(pool, guard);
  const emailCapture = new EmailCaptureEngine(pool, config);
  const captures = new CaptureService({ config, store });
  const judge = config.vision ? new ModelJudge(config.vision) : new InspectorJudge();
  const ctx: ServiceContext = { config, store, guard, pool, webCapture, emailCapture, captures, judge, mail: new MailStore(config.dataDir) };
  return {
    ...ctx,
    pool,
    accounts: new AccountService(ctx),
    jobs: new JobService(ctx),
    catalog: new CatalogService(ctx),
    feedback: new FeedbackService(ctx),
    async close() {
      await pool.close();
      store.close();
    },
  };
}
