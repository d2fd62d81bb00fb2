import { existsSync, readFileSync } from "node:fs";
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type ValueError, ValueErrorType, Value } from "@sinclair/typebox/value";
import { JobRequest } from "../../../../src/contracts/job-request";
import { Ignore, PROJECT_PATTERN, VisualSettings } from "../../../../src/contracts/run-request";
import { UsageError } from "../../../../src/cli/program";

/**
 * assay.config.json: a site's pages and how to check them, in the spirit of .pa11yci and lighthouserc. Read by
 * `assay site` (or `--config FILE`); every problem names the file and the JSON path (`$.pages[2].url`).
 */

export const CONFIG_FILE = "assay.config.json";

const Patterns = Type.Array(Type.String({ minLength: 1 }), { description: "Globs over the URL's path." });

/** What a page is checked with; a page's own selection replaces the defaults' (validations and set together). */
const Selection = {
  validations: Type.Optional(JobRequest.properties.validations),
  validationSetId: Type.Optional(Type.String({ minLength: 1 })),
  captureSizes: Type.Optional(JobRequest.properties.captureSizes),
  detail: Type.Optional(JobRequest.properties.detail),
};

const PageDefaults = Type.Object(Selection, { additionalProperties: false });

const UrlPageEntry = Type.Object(
  { url: Type.String({ minLength: 1 }), name: Type.Optional(Type.String({ minLength: 1 })), ...Selection },
  { additionalProperties: false },
);
const HtmlPageEntry = Type.Object(
  {
    html: Type.String({ minLength: 1, description: "An HTML file, relative to the config file." }),
    pageUrl: Type.String({ minLength: 1, description: "The address the file stands for (its baseUrl)." }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    ...Selection,
  },
  { additionalProperties: false },
);

const Discovery = {
  url: Type.String({ minLength: 1 }),
  maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  include: Type.Optional(Patterns),
  exclude: Type.Optional(Patterns),
};

export const SiteConfig = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    project: Type.String({ pattern: PROJECT_PATTERN }),
    branch: Type.Optional(Type.String({ minLength: 1 })),
    baseBranch: Type.Optional(Type.String({ minLength: 1 })),
    pages: Type.Optional(Type.Array(Type.Union([Type.String({ minLength: 1 }), UrlPageEntry, HtmlPageEntry]))),
    sitemap: Type.Optional(Type.Object(Discovery, { additionalProperties: false })),
    crawl: Type.Optional(
      Type.Object(
        { ...Discovery, maxDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })) },
        { additionalProperties: false },
      ),
    ),
    dist: Type.Optional(
      Type.Object(
        {
          dir: Type.String({ minLength: 1, description: "A built folder, relative to the config file." }),
          pageUrl: Type.String({ minLength: 1 }),
          include: Type.Optional(Patterns),
          exclude: Type.Optional(Patterns),
        },
        { additionalProperties: false },
      ),
    ),
    defaults: Type.Optional(PageDefaults),
    failOn: Type.Optional(Type.String({ minLength: 1 })),
    ignores: Type.Optional(Type.Array(Ignore)),
    visual: Type.Optional(VisualSettings),
  },
  { additionalProperties: false },
);

export type SiteConfigFile = Static<typeof SiteConfig>;
export type PageSelection = Static<typeof PageDefaults>;

/** A JSON pointer (`/pages/2/url`) as a JSON path (`$.pages[2].url`). */
export function jsonPath(pointer: string): string {
  return `$${pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) =>
      /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`,
    )
    .join("")}`;
}

/**
 * The most telling error: inside a union, the first of the variant the value comes closest to: one whose type it
 * has (its errors are inside it), with the fewest errors.
 */
function telling(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union || !error.errors.length) return error;
  const inside = error.errors
    .map((variant) => [...variant].slice(0, 50))
    .filter((errors) => errors.length > 0 && errors.every((e) => e.path.length > error.path.length));
  const closest = inside.reduce<ValueError[] | undefined>(
    (best, errors) => (!best || errors.length < best.length ? errors : best),
    undefined,
  );
  return closest ? telling(closest[0]!) : error;
}

/** The value's first problem against the schema as `$.path: message`, or null when it conforms. */
export function schemaProblem(schema: TSchema, value: unknown): string | null {
  const first = Value.Errors(schema, value).First();
  if (!first) return null;
  const e = telling(first);
  return `${jsonPath(e.path)}: ${e.message}`;
}

/** Reads and validates a config file; a missing, unreadable or invalid one is a UsageError naming it (exit 2). */
export function loadSiteConfig(path: string): SiteConfigFile {
  if (!existsSync(path)) throw new UsageError(`${path}: no such config file`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new UsageError(`${path}: not JSON: ${(e as Error).message}`);
  }
  const problem = schemaProblem(SiteConfig, value);
  if (problem) throw new UsageError(`${path}: ${problem}`);
  return value as SiteConfigFile;
}
