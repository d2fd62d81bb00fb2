import type { Config } from "../config";
import type { AccountService } from "./accounts";
import type { JobService } from "./jobs";
import type { JobQuotes } from "./job-quotes";
import type { CaptureService } from "./captures";
import type { CatalogService } from "./catalog";
import type { FeedbackService } from "./feedback";
import type { OperatorService } from "./operator";
import type { SessionService } from "./sessions";
import type { OidcSignIn } from "./oidc";
import type { MembersService } from "./members";
import type { DeviceService } from "./device";
import type { PlanService } from "./plans";
import type { PlaygroundService } from "./playground";
import type { NodeDuties } from "./node-duties";
import type { DiscoveryService } from "./discovery";
import type { WebhookService } from "./webhooks";
import type { RunService } from "./runs";

/**
 * Everything a surface (HTTP, MCP, CLI) may call: application services only. No event log, read models, browser
 * pool or network guard: those stay inside the services that src/app.ts builds.
 */
export interface Services {
  /** Settings the surfaces print (publicBaseUrl) or document; read, never written, by them. */
  config: Config;
  accounts: AccountService;
  sessions: SessionService;
  oidc: OidcSignIn;
  members: MembersService;
  device: DeviceService;
  jobs: JobService;
  /** Runs: a project's pages checked as one request, compared with the project's baseline. */
  runs: RunService;
  /** A job body planned, gated and priced without running it. */
  quotes: JobQuotes;
  /** A site's pages from its sitemap or a crawl, through the network guard; nothing charged or appended. */
  discovery: DiscoveryService;
  /** Anonymous runs: no organization, credits or events. */
  playground: PlaygroundService;
  captures: CaptureService;
  catalog: CatalogService;
  feedback: FeedbackService;
  operator: OperatorService;
  plans: PlanService;
  /** Webhook endpoints, and the delivery log of each. */
  webhooks: WebhookService;
  /** This node among those sharing its log: read models caught up per request, /healthz and /readyz, the sweeps. */
  node: NodeDuties;
}
