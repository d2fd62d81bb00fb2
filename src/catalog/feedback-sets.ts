import { readFileSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import defaultSets from "./feedback-sets.json" with { type: "json" };
import { findSet } from "./sets";

/**
 * Feedback sets are data (spec §9 rule 4: questions change without notice): the file beside this module is
 * embedded in the build, and ASSAY_FEEDBACK_SETS_FILE replaces it. It is validated when the service starts.
 */

const VerdictState = Type.Union([Type.Literal("pass"), Type.Literal("fail"), Type.Literal("error")]);
const Choice = Type.String({ minLength: 1, maxLength: 200 });

/** A question's answer schema: a `kind` and its own options, bounds or states. The wire serves it as written here. */
export const QuestionShape = Type.Union([
  Type.Object(
    { kind: Type.Literal("verdict"), states: Type.Array(VerdictState, { minItems: 2, uniqueItems: true }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("single_choice"), options: Type.Array(Choice, { minItems: 2, uniqueItems: true }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("multi_choice"),
      options: Type.Array(Choice, { minItems: 2, uniqueItems: true }),
      min: Type.Integer({ minimum: 0 }),
      max: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("rating"), min: Type.Integer(), max: Type.Integer() },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("text"),
      maxLength: Type.Integer({ minimum: 1, maximum: 10000 }),
      required: Type.Boolean({ description: "false: still answered once, with null or an empty string allowed." }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal("boolean") }, { additionalProperties: false }),
]);
export type QuestionShape = Static<typeof QuestionShape>;

const QuestionId = Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_]{0,63}$" });
const SetId = Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" });
const Title = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ minLength: 1, maxLength: 1000 });

/** The looks-wrong set is worded per verdict the check gave: a fail asks whether the problem is real, and so on. */
const ValidationSetFile = Type.Object(
  {
    setId: SetId,
    scope: Type.Literal("validation"),
    title: Title,
    questions: Type.Array(
      Type.Object(
        {
          id: QuestionId,
          text: Type.Object({ pass: Text, fail: Text, error: Text }, { additionalProperties: false }),
          shape: QuestionShape,
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);

const QueuedQuestion = Type.Object(
  { id: QuestionId, text: Text, shape: QuestionShape },
  { additionalProperties: false },
);

const JobSetFile = Type.Object(
  {
    setId: SetId,
    scope: Type.Literal("job"),
    title: Title,
    rewardCredits: Type.Integer({ minimum: 0 }),
    questions: Type.Array(QueuedQuestion, { minItems: 1 }),
  },
  { additionalProperties: false },
);

const StandardSetFile = Type.Object(
  {
    setId: SetId,
    scope: Type.Literal("standard"),
    validationSetId: Type.String({ minLength: 1 }),
    title: Title,
    rewardCredits: Type.Integer({ minimum: 0 }),
    questions: Type.Array(QueuedQuestion, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export const FeedbackSetsFile = Type.Object(
  { sets: Type.Array(Type.Union([ValidationSetFile, JobSetFile, StandardSetFile]), { minItems: 1 }) },
  { additionalProperties: false },
);

export type LooksWrongSet = Static<typeof ValidationSetFile>;
export type QueuedSet = Static<typeof JobSetFile> | Static<typeof StandardSetFile>;
export type FeedbackSet = LooksWrongSet | QueuedSet;

/** The sets in file order (the order queued sets are asked in), and the one looks-wrong set. */
export interface FeedbackSets {
  all: FeedbackSet[];
  looksWrong: LooksWrongSet;
  queued: QueuedSet[];
  find(setId: string): FeedbackSet | undefined;
}

/** The questions the looks-wrong rules read: their ids and shapes are fixed, their wording is the file's. */
const LOOKS_WRONG_QUESTIONS: Record<string, QuestionShape["kind"]> = {
  humanVerdict: "verdict",
  aiMistakeNotes: "text",
  verdictComments: "text",
  feedbackNotes: "text",
};

const checkFile = TypeCompiler.Compile(FeedbackSetsFile);
const checkList = TypeCompiler.Compile(
  Type.Object({ sets: Type.Array(Type.Unknown(), { minItems: 1 }) }, { additionalProperties: false }),
);
/** Each set checked against its own scope's schema, so a problem is named by its field, not as "no union member matched". */
const checkByScope = {
  validation: TypeCompiler.Compile(ValidationSetFile),
  job: TypeCompiler.Compile(JobSetFile),
  standard: TypeCompiler.Compile(StandardSetFile),
};

export class FeedbackSetsError extends Error {}

/** The sets from `file` (the embedded default without one); a FeedbackSetsError naming the file and the problem otherwise. */
export function loadFeedbackSets(file?: string): FeedbackSets {
  const source = file ?? "the embedded src/catalog/feedback-sets.json";
  let data: unknown = defaultSets;
  if (file) {
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new FeedbackSetsError(`Feedback sets file ${file} could not be read as JSON: ${(e as Error).message}`);
    }
  }
  const problems = setProblems(data);
  if (problems.length) throw new FeedbackSetsError(`Feedback sets file ${source} is invalid: ${problems.join("; ")}`);
  const all = (data as Static<typeof FeedbackSetsFile>).sets;
  const byId = new Map(all.map((s) => [s.setId, s]));
  return {
    all,
    looksWrong: all.find((s): s is LooksWrongSet => s.scope === "validation")!,
    queued: all.filter((s): s is QueuedSet => s.scope !== "validation"),
    find: (setId) => byId.get(setId),
  };
}

function setProblems(data: unknown): string[] {
  if (!checkList.Check(data))
    return [...checkList.Errors(data)].slice(0, 3).map((e) => `${e.path || "/"}: ${e.message}`);
  if (!checkFile.Check(data)) {
    return data.sets.flatMap((set, i) => {
      const scope = (set as { scope?: unknown } | null)?.scope;
      const check = checkByScope[scope as keyof typeof checkByScope];
      if (!check) return [`/sets/${i}/scope: must be validation, job or standard`];
      return [...check.Errors(set)].slice(0, 3).map((e) => `/sets/${i}${e.path}: ${e.message}`);
    });
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const set of data.sets) {
    if (seen.has(set.setId)) problems.push(`setId ${set.setId} appears twice`);
    seen.add(set.setId);
    const ids = set.questions.map((q) => q.id);
    if (new Set(ids).size !== ids.length) problems.push(`set ${set.setId} repeats a question id`);
    for (const q of set.questions) {
      const shape = q.shape;
      if ((shape.kind === "rating" || shape.kind === "multi_choice") && shape.min > shape.max)
        problems.push(`set ${set.setId} question ${q.id}: min above max`);
      if (shape.kind === "multi_choice" && shape.max > shape.options.length)
        problems.push(`set ${set.setId} question ${q.id}: max above the number of options`);
    }
    if (set.scope === "standard" && !findSet(set.validationSetId))
      problems.push(`set ${set.setId} is about validation set ${set.validationSetId}, which does not exist`);
    if (set.scope === "validation") {
      for (const [id, kind] of Object.entries(LOOKS_WRONG_QUESTIONS)) {
        const q = set.questions.find((x) => x.id === id);
        if (!q || q.shape.kind !== kind)
          problems.push(`the looks-wrong set ${set.setId} needs question ${id} of kind ${kind}`);
      }
      const verdict = set.questions.find((x) => x.id === "humanVerdict");
      if (verdict?.shape.kind === "verdict" && verdict.shape.states.length !== 3)
        problems.push(`question humanVerdict of ${set.setId} must offer pass, fail and error`);
    }
  }
  const looksWrong = data.sets.filter((s) => s.scope === "validation").length;
  if (looksWrong !== 1)
    problems.push(`there must be exactly one set of scope validation (the looks-wrong set), found ${looksWrong}`);
  return problems;
}
