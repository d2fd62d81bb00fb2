import { readFileSync, statSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../errors/app-error";
import { CAPTURE_SIZES, type CaptureSize, type EmailClient } from "../capture/vocabulary";
import { EMAIL_CLIENTS, emailClientCatalogView } from "../catalog/email-clients";
import type { PlannedValidation } from "../domain/planned-job";

/** ASSAY_EMAIL_CLIENTS_FILE: per form factor, the client ids offered (a form factor not named offers all of its clients). */
const OfferSchema = Type.Object(
  { offered: Type.Record(Type.String(), Type.Array(Type.String(), { uniqueItems: true })) },
  { additionalProperties: false },
);

type Offered = Record<CaptureSize, EmailClient[]>;

/**
 * The render catalog as offered here: the compiled clients (src/catalog/email-clients.ts), narrowed by the
 * operator's file when one is named. The file is read when first needed and again whenever it changes; the last
 * copy that validated is kept and served while the file is unreadable or invalid. With no good copy, requests
 * that name clients (and GET /api/email-clients) are EMAIL_CLIENT_CATALOG_UNAVAILABLE; a job naming none renders
 * in the native defaults, which the file may not take away, so it still runs.
 */
export class EmailClientCatalog {
  private good: { stamp: string; offered: Offered } | null = null;

  constructor(private readonly file?: string) {}

  /** GET /api/email-clients and the list_email_clients tool: the clients offered, each marked for a plan. */
  view(plan: { code: string; name: string }, planIncludes: (client: EmailClient) => boolean) {
    return emailClientCatalogView(plan, planIncludes, this.offered());
  }

  /** Refuses a planned job naming a client this server does not offer; asks for the catalog only when the job names clients. */
  checkNamedClients(run: readonly PlannedValidation[]): void {
    const named = run.filter((v) => v.clients);
    if (named.length === 0) return;
    const offered = this.offered();
    for (const v of named) {
      const unknownClients = Object.entries(v.clients!).flatMap(([formFactor, ids]) =>
        ids
          .filter((id) => !offered[formFactor as CaptureSize].some((c) => c.id === id))
          .map((clientId) => ({ formFactor, clientId })),
      );
      if (unknownClients.length === 0) continue;
      throw new AppError(
        "UNKNOWN_EMAIL_CLIENT",
        `${unknownClients.map((c) => `${c.clientId} (${c.formFactor})`).join(", ")} not offered by this server's render catalog; GET /api/email-clients lists the clients of each form factor.`,
        {
          validationId: v.module.meta.id,
          unknownClients,
          knownClients: Object.fromEntries(
            [...new Set(unknownClients.map((c) => c.formFactor as CaptureSize))].map((ff) => [
              ff,
              offered[ff].map((c) => c.id),
            ]),
          ),
        },
      );
    }
  }

  private offered(): Offered {
    if (!this.file) return EMAIL_CLIENTS;
    let stamp: string;
    try {
      const stat = statSync(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch (e) {
      return this.lastGood(`cannot be read: ${(e as Error).message}`);
    }
    if (this.good?.stamp === stamp) return this.good.offered;
    let offered: Offered;
    try {
      offered = narrow(JSON.parse(readFileSync(this.file, "utf8")));
    } catch (e) {
      return this.lastGood((e as Error).message);
    }
    this.good = { stamp, offered };
    return offered;
  }

  private lastGood(problem: string): Offered {
    console.error(
      `Email client catalog ${this.file} (ASSAY_EMAIL_CLIENTS_FILE) ${problem}${this.good ? "; serving the last good copy" : ""}`,
    );
    if (this.good) return this.good.offered;
    throw new AppError(
      "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
      "The render catalog cannot be read here now; nothing was charged. Retry, or resubmit without per-validation clients (the native defaults still render).",
      {
        source: "ASSAY_EMAIL_CLIENTS_FILE",
      },
      undefined,
      true,
    );
  }
}

/** The compiled catalog narrowed by the file; throws naming the problem when the file is not a valid offer. */
function narrow(raw: unknown): Offered {
  const error = Value.Errors(OfferSchema, raw).First();
  if (error) throw new Error(`is invalid at ${error.path || "/"}: ${error.message}`);
  const offer = (raw as Static<typeof OfferSchema>).offered as Partial<Record<CaptureSize, string[]>>;
  const stray = Object.keys(offer).find((ff) => !(CAPTURE_SIZES as readonly string[]).includes(ff));
  if (stray !== undefined)
    throw new Error(`is invalid at /offered/${stray}: not a form factor (${CAPTURE_SIZES.join(", ")})`);
  const out = { ...EMAIL_CLIENTS };
  for (const ff of CAPTURE_SIZES) {
    const ids = offer[ff];
    if (!ids) continue;
    const unknown = ids.find((id) => !EMAIL_CLIENTS[ff].some((c) => c.id === id));
    if (unknown !== undefined)
      throw new Error(`is invalid at /offered/${ff}: no client ${JSON.stringify(unknown)} at that form factor`);
    const native = EMAIL_CLIENTS[ff].find((c) => c.nativeDefault)!;
    if (!ids.includes(native.id))
      throw new Error(`is invalid at /offered/${ff}: the native default ${native.id} must stay offered`);
    out[ff] = EMAIL_CLIENTS[ff].filter((c) => ids.includes(c.id));
  }
  return out;
}
