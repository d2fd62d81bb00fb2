import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "./config";
import { EventStore } from "./store/event-store";
import { eventTypes } from "../events";
import { installProjections } from "../projections";
import { NetworkGuard } from "./capture/network-guard";
import { addressResolverFor } from "./capture/email/dns-resolver";
import { BrowserPool } from "./capture/browser-pool";
import { WebCaptureEngine } from "./capture/web-capture";
import { EmailCaptureEngine } from "./capture/email/email-capture";
import { AccountService } from "./services/accounts";
import { JobService } from "./services/jobs";
import { CaptureService } from "./services/captures";
import { CatalogService } from "./services/catalog";
import { FeedbackService } from "./services/feedback";
import { loadFeedbackSets } from "./catalog/feedback-sets";
import { OperatorService } from "./services/operator";
import { SessionService } from "./services/sessions";
import { OidcSignIn } from "./services/oidc";
import { MembersService } from "./services/members";
import { DeviceService } from "./services/device";
import { createMailer } from "./services/mailer";
import { InspectorJudge } from "./judge/judge";
import { ModelJudge } from "./judge/model";
import { MailStore } from "./store/mail-store";
import { PlanService } from "./services/plans";
import { PlaygroundService, playgroundOffer } from "./services/playground";
import { EmailClientCatalog } from "./services/email-client-catalog";
import { LocalBillingProvider } from "./services/billing/local";
import { StripeBillingProvider } from "./services/billing/stripe";
import type { BillingProvider } from "./services/billing/provider";
import { loadPlanCatalog, type PlanCatalog } from "./catalog/plans";
import type { ServiceContext } from "./services/context";
import type { Services } from "./services/facade";

/**
 * The composition root: one store, one guard, one browser pool per process, and the services over them.
 * Surfaces receive the Services facade; the store and the pool are here for the runtime (warm-up, shutdown),
 * the benches and the tests that read the log.
 */
export interface Assay extends Services {
  store: EventStore;
  pool: BrowserPool;
  /** The received messages on disk, which the SMTP inbox writes. */
  mail: MailStore;
  close(): Promise<void>;
}

export function openStore(dataDir: string): EventStore {
  mkdirSync(dataDir, { recursive: true });
  const store = new EventStore(join(dataDir, "assay.sqlite"), eventTypes);
  installProjections(store);
  return store;
}

/** Builds the whole service graph for one process. */
export function createAssay(config: Config = loadConfig()): Assay {
  // Before anything opens: a broken sets file, plan catalog or playground setting stops the start with its name and problem.
  const feedbackSets = loadFeedbackSets(config.feedbackSetsFile);
  const plansOver = plansFor(config);
  const offer = playgroundOffer(config.playground);
  const store = openStore(config.dataDir);
  const guard = new NetworkGuard(config.allowPrivateTargets, addressResolverFor(config));
  const pool = BrowserPool.fromConfig(config);
  const webCapture = new WebCaptureEngine(pool, guard);
  const emailCapture = new EmailCaptureEngine(pool, config);
  const captures = new CaptureService({ config, store });
  const judge = config.vision ? new ModelJudge(config.vision) : new InspectorJudge();
  const mail = new MailStore(config.dataDir);
  const plans = plansOver(store);
  const emailClients = new EmailClientCatalog(config.emailClientsFile);
  const ctx: ServiceContext = { config, store, guard, pool, webCapture, emailCapture, captures, judge, mail, plans, emailClients };
  const accounts = new AccountService(ctx);
  const mailer = createMailer(config);
  const sessions = new SessionService(ctx, mailer);
  return {
    config,
    accounts,
    sessions,
    oidc: new OidcSignIn(config, sessions),
    members: new MembersService(ctx, mailer, sessions),
    device: new DeviceService(ctx),
    jobs: new JobService(ctx),
    playground: new PlaygroundService(ctx, offer),
    captures,
    catalog: new CatalogService(ctx),
    feedback: new FeedbackService(store, feedbackSets),
    operator: new OperatorService(ctx, accounts),
    plans,
    store,
    pool,
    mail,
    async close() {
      await pool.close();
      store.close();
    },
  };
}

/**
 * The plan catalog and the billing provider, read and checked before anything opens (a bad catalog stops the
 * start); then a PlanService over a store.
 */
export function plansFor(config: Config): (store: EventStore) => PlanService {
  const catalog = loadPlanCatalog(config.plansFile);
  const provider = billingProvider(config, catalog);
  return (store) => new PlanService({ config, store }, catalog, provider);
}

/** The billing provider ASSAY_BILLING_PROVIDER names; an unknown name stops the process at start. */
function billingProvider(config: Config, catalog: PlanCatalog): BillingProvider {
  if (config.billingProvider === "local") return new LocalBillingProvider(catalog);
  if (config.billingProvider === "stripe") {
    // Unconfigured, the server still starts (catalog, errors, signup); plan-dependent requests are SERVICE_UNAVAILABLE.
    if (!config.stripe.secretKey) console.error("ASSAY_BILLING_PROVIDER=stripe without ASSAY_STRIPE_SECRET_KEY: plan-dependent requests answer SERVICE_UNAVAILABLE.");
    return new StripeBillingProvider(config.stripe);
  }
  throw new Error(`ASSAY_BILLING_PROVIDER=${config.billingProvider} names no billing provider (known: local, stripe).`);
}

/** The operator's graph (the CLI's replay, ledger verify, key, credits, plan and billing commands): the store and what those commands need, no browser. */
export function openOperator(config: Config = loadConfig()): { operator: OperatorService; close(): void } {
  const plansOver = plansFor(config);
  const store = openStore(config.dataDir);
  const plans = plansOver(store);
  return { operator: new OperatorService({ store, plans }, new AccountService({ config, store, plans })), close: () => store.close() };
}
