import { Type } from "@sinclair/typebox";
import { CustomerQuery } from "../../contracts/request-parts";
import { Bool, Dict, Int, literals, Obj, Opt, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { PLAN_RESOLUTION_ERRORS, READ } from "../words";

const EmailClientView = Obj({
  id: Str(),
  name: Str(),
  engine: Str(),
  nativeDefault: Bool(),
  planIncluded: Bool(),
  extraCredits: Bool(),
  creditsPerRender: Int(),
  colorScheme: literals(["light", "dark"] as const),
  darkMode: literals(["none", "color-scheme", "partial-invert", "full-invert"] as const),
  darkMethod: Obj(
    {
      method: literals(["forced-inversion", "prefers-color-scheme", "none"] as const),
      extent: Opt(literals(["full", "partial"] as const)),
    },
    "How the client darkens mail: a forced inversion of the message's colours (full or partial), or the message's own prefers-color-scheme styles.",
  ),
  darkVariant: Opt(Str()),
  lightVariant: Opt(Str()),
  renderWidth: Int(),
  caniemail: Type.Array(Str()),
});

const EmailClientCatalog = Obj({
  plan: Obj({ code: Str(), name: Str() }),
  pricing: Obj({ creditsPerRender: Int(), extraCreditsPerRender: Int(), note: Str() }),
  formFactors: Dict(
    Obj({ viewport: Obj({ width: Int(), height: Int() }), nativeDefault: Str(), clients: Dict(EmailClientView) }),
  ),
  docs: Str(),
});

export const listEmailClients = defineOperation({
  operationId: "listEmailClients",
  tag: "jobs",
  summary: "Mail clients visual email checks render in, per form factor, with plan inclusion and extra-credit flags",
  http: {
    method: "get",
    path: "/api/email-clients",
    returns: "The render catalog, keyed by form factor, then client id.",
  },
  mcp: {
    name: "list_email_clients",
    title: "List mail clients",
    description:
      "The mail clients a visual email check can be rendered in, per form factor (mobile-sm, tablet-portrait, desktop-md): id, name, engine, the native default, plan inclusion, extra-credit clients and credits per render. Use the ids in a validation entry's clients. Same as GET /api/email-clients.",
    annotations: { title: "List mail clients", ...READ },
    summary: (data) => {
      const counts = Object.entries(data.formFactors).map(([ff, v]) => `${Object.keys(v.clients).length} at ${ff}`);
      return `Mail clients: ${counts.join(", ")}; native defaults: ${Object.values(data.formFactors)
        .map((v) => v.nativeDefault)
        .join(", ")}.`;
    },
  },
  auth: { kind: "key", scope: "jobs:read" },
  input: { query: CustomerQuery },
  output: EmailClientCatalog,
  errors: [...PLAN_RESOLUTION_ERRORS, "EMAIL_CLIENT_CATALOG_UNAVAILABLE"],
  example: {},
  handle: (_input, { services, customerId }) => services.quotes.emailClients(customerId),
});
