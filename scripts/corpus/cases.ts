/**
 * The real-world corpus's case format (corpus/README.md), in one place: the schema of case.json, the loader, and
 * which checks a case must label. Read by scripts/accuracy.ts, scripts/corpus/compose-email.ts and
 * test/repo/corpus.test.ts.
 */
import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validationModules } from "../../src/catalog/registry";

export const CORPUS_ROOT = join(import.meta.dir, "..", "..", "corpus");

const Label = Type.Object(
  {
    expect: Type.Union([Type.Literal("pass"), Type.Literal("fail"), Type.Literal("n/a")]),
    reason: Type.String({ minLength: 8 }),
    authority: Type.Optional(Type.String({ minLength: 8 })),
  },
  { additionalProperties: false },
);

const Source = Type.Object(
  {
    repository: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$" }),
    path: Type.String({ minLength: 1 }),
    commit: Type.String({ pattern: "^[0-9a-f]{40}$" }),
    licence: Type.String({ minLength: 2 }),
    licenceFile: Type.String({ pattern: "^LICENSES/" }),
    url: Type.String({ pattern: "^https://" }),
  },
  { additionalProperties: false },
);

const common = {
  title: Type.String({ minLength: 3 }),
  source: Source,
  kind: Type.Union(
    ["template", "documentation", "boilerplate", "accessibility-demo", "newsletter", "transactional"].map((k) =>
      Type.Literal(k),
    ),
  ),
  changes: Type.Array(Type.String({ minLength: 8 })),
  labels: Type.Record(Type.String(), Label),
  notes: Type.Optional(Type.Array(Type.String({ minLength: 8 }))),
};

export const WebCaseFile = Type.Object(
  { ...common, entry: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const EmailCaseFile = Type.Object(
  {
    ...common,
    build: Type.Union([Type.Literal("none"), Type.Literal("mjml"), Type.Literal("inky"), Type.Literal("handlebars")]),
    template: Type.String({ minLength: 1 }),
    data: Type.Optional(Type.String({ minLength: 1 })),
    delivery: Type.Object(
      {
        stream: Type.Union([Type.Literal("transactional"), Type.Literal("bulk")]),
        from: Type.String({ minLength: 3 }),
        replyTo: Type.Optional(Type.String({ minLength: 3 })),
        subject: Type.String(),
        listUnsubscribe: Type.Optional(Type.String({ minLength: 3 })),
        oneClick: Type.Optional(Type.Boolean()),
        text: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type WebCase = Static<typeof WebCaseFile> & { id: string; dir: string };
export type EmailCase = Static<typeof EmailCaseFile> & { id: string; dir: string };
export type CorpusLabel = Static<typeof Label>;

/**
 * The checks a case labels: every check of its subject that runs without configuration. Email authentication
 * is left out: the corpus's messages are composed and delivered from loopback, unsigned, so its verdict would
 * measure the replay, not the message (test/checks/email-authentication.test.ts covers it).
 */
export function labelledChecks(subject: "web" | "email"): string[] {
  return validationModules
    .filter((m) => m.meta.subjectType === (subject === "web" ? "url" : "email") && !m.meta.requiresConfiguration)
    .filter((m) => !(m.meta.needs as string[]).includes("authentication"))
    .map((m) => m.meta.id);
}

const checkWeb = TypeCompiler.Compile(WebCaseFile);
const checkEmail = TypeCompiler.Compile(EmailCaseFile);

/** Every case of a subject, sorted by id; a case.json that does not match its schema throws, naming the file and the field. */
export function loadCases(subject: "web", root?: string): WebCase[];
export function loadCases(subject: "email", root?: string): EmailCase[];
export function loadCases(subject: "web" | "email", root = CORPUS_ROOT): Array<WebCase | EmailCase> {
  const dir = join(root, subject);
  if (!existsSync(dir)) return [];
  const check = subject === "web" ? checkWeb : checkEmail;
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((id) => {
      const file = join(dir, id, "case.json");
      const value: unknown = JSON.parse(readFileSync(file, "utf8"));
      const first = check.Errors(value).First();
      if (first) throw new Error(`${file}: ${first.path || "/"} ${first.message}`);
      return { ...(value as Static<typeof WebCaseFile>), id, dir: join(dir, id) } as WebCase | EmailCase;
    });
}
