import { Type, type TLiteral, type TUnion } from "@sinclair/typebox";
import { CAPTURE_SIZES, RENDER_ENGINES } from "../capture/vocabulary";

export const JOB_TYPES = ["url", "static_html", "email"] as const;
/** Assay's severities: how much a failure matters. */
export const ASSAY_SEVERITIES = ["critical", "major", "minor", "info"] as const;
/** The hosted service's severities: what a failure does to the job (src/domain/pass-policy.ts maps the two). */
export const POLICY_SEVERITIES = ["required", "recommended", "optional", "prohibited"] as const;
/** Either vocabulary: Assay's, or the hosted service's (stored as Assay's, see src/domain/pass-policy.ts). */
const SEVERITIES = [...ASSAY_SEVERITIES, ...POLICY_SEVERITIES] as const;
export const DETAILS = ["brief", "verbose"] as const;

/** A string enum. `x-enum` lets the request validator tell an out-of-range value from a wrongly typed one. */
export const enumOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description, "x-enum": values },
  ) as unknown as TUnion<TLiteral<T[number]>[]>;

const ClientSelection = Type.Record(Type.String(), Type.Array(Type.String()), {
  description:
    "Email validations that render only. Keys are form factors (mobile-sm, tablet-portrait, desktop-md); values are arrays of mail-client ids; an empty array means that form factor's native default client.",
});

export const ValidationEntry = Type.Object(
  {
    id: Type.String({ description: "A runnable validation id of the job's subject type." }),
    severity: Type.Optional(
      enumOf(
        SEVERITIES,
        "Overrides the catalog severity for this job: critical, major, minor, info, or the hosted vocabulary required (stored as critical), recommended (minor), optional (info), prohibited (a failure blocks as a found prohibited thing).",
      ),
    ),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "The validation's parameters, by name." }),
    ),
    clients: Type.Optional(ClientSelection),
    engines: Type.Optional(
      Type.Array(enumOf(RENDER_ENGINES, `A browser engine: ${RENDER_ENGINES.join(", ")}.`), {
        minItems: 1,
        description:
          'Webpage checks that take engines (layout-not-broken, no-horizontal-overflow): the browser engines the page is rendered and judged in at each of the check\'s sizes; default ["chromium"]. Each engine beyond Chromium is priced and gated like an extra-credit mail client.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The unified job request: the body of POST /api/jobs and POST /api/jobs/estimate, and of the MCP job tools. */
export const JobRequest = Type.Object(
  {
    type: enumOf(JOB_TYPES, "The subject type; exactly one subject per job."),
    url: Type.Optional(Type.String({ description: "type=url: a public http(s) URL." })),
    html: Type.Optional(Type.String({ description: "type=static_html: the HTML to render." })),
    baseUrl: Type.Optional(
      Type.String({
        description: "type=static_html: the http(s) URL the HTML is rendered as (resolves relative links).",
      }),
    ),
    subject: Type.Optional(
      Type.String({ description: "type=email: the expected subject line, matched against the message." }),
    ),
    validations: Type.Optional(
      Type.Array(Type.Union([Type.String(), ValidationEntry]), {
        description: "Validation ids, or entry objects with parameters, severity and clients.",
      }),
    ),
    validationSetId: Type.Optional(Type.String({ description: "One published validation set id." })),
    captureSizes: Type.Optional(
      Type.Array(Type.String({ description: `A capture size id: ${CAPTURE_SIZES.join(", ")}.` }), {
        description: "Which capture sizes to render; default: each selected check's standard sizes.",
        minItems: 1,
      }),
    ),
    detail: Type.Optional(
      enumOf(
        DETAILS,
        "brief (default) or verbose (adds references and a note to each result, and to a row a vision model judged its provenance, `judge`).",
      ),
    ),
    customerId: Type.Optional(
      Type.String({ description: "Your organization; defaults to the key's. Another's is refused." }),
    ),
  },
  { additionalProperties: false },
);
