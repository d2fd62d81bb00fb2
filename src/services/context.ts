import type { Config } from "../config";
import type { EventLog } from "../store/event-log";
import type { KeyUsage } from "../store/key-usage";
import type { ReadModels } from "../../projections/projection";
import type { EventMetadata } from "../../events/metadata";
import type { NetworkGuard } from "../capture/network-guard";
import type { WebCaptureEngine } from "../capture/web-capture";
import type { EngineCaptures } from "../capture/engines/engine-captures";
import type { EmailCaptureEngine } from "../capture/email/email-capture";
import type { BrowserPool } from "../capture/browser-pool";
import type { CaptureService } from "./captures";
import type { Judge } from "../judge/judge";
import type { MailStore } from "../store/mail-store";
import type { PlanService } from "./plans";
import type { EmailClientCatalog } from "./email-client-catalog";
import type { WindowCounter } from "../store/coordinator";
import type { AddressLimits } from "./address-limits";

/** What every application service shares; built once per process by createAssay. */
export interface ServiceContext {
  config: Config;
  /** The event log: appends, and one stream's events when a decider folds its own. */
  log: EventLog;
  /** This node's read models, for the query functions of projections/ (synchronous, at the log's head after catchUp). */
  readModels: ReadModels;
  /** When each key was last used: kept by this node beside its read models, not in the log. */
  keyUsage: KeyUsage;
  guard: NetworkGuard;
  webCapture: WebCaptureEngine;
  /** Webpages rendered in engines beyond Chromium (WebKit), for the checks a job judges in them. */
  engines: EngineCaptures;
  /** Gathers a received message's artifacts (MIME, authentication, HTML structure, mail-client renders). */
  emailCapture: EmailCaptureEngine;
  /** The warm Chromium browsers; email jobs open their own contexts on it (the web capture engine shares it). */
  pool: BrowserPool;
  captures: CaptureService;
  judge: Judge;
  mail: MailStore;
  /** Resolves an organization's plan (billing provider, catalog, entitlement): the one entry point for plan-dependent requests. */
  plans: PlanService;
  /** Where several nodes share a PostgreSQL log: the window counts their per-address limits share (unset: each process counts). */
  sharedCounts?: WindowCounter;
  /** The per-address limits on what a caller without a credential may append (counted in sharedCounts when set). */
  limits: AddressLimits;
  /** The render catalog as offered here (the operator's file, when named, narrows it). */
  emailClients: EmailClientCatalog;
}

/** Who asked, on which surface: recorded in every event's metadata. */
export type RequestMeta = EventMetadata;
