import { distance } from "fastest-levenshtein";
import { validationModules } from "./registry";
import { validationSets } from "./sets";

/**
 * "Did you mean": the catalog's ids nearest to one that names nothing, for the errors that refuse an unknown id
 * (their `details.suggestions`, which the CLI, MCP clients and the catalog's 404 page show).
 */

/** An id as a person might type it (any case, with spaces or underscores for its hyphens), written as ids are. */
export const typedId = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");

/** An edit a typo makes: a third of the id's length, at least 2 (a swapped pair of letters is 2 edits). */
const withinReach = (given: string, d: number) => d <= Math.max(2, Math.floor(given.length / 3));

interface Candidate {
  /** What is suggested. */
  id: string;
  /** The names it is known by (an id and a slug). */
  names: string[];
  subjectType: "url" | "email";
}

/**
 * At most `limit` candidates nearest to `given`, nearest first (ties in catalog order): those within a typo's reach
 * of one of their names by Levenshtein distance (fastest-levenshtein), else those whose name holds every word of
 * `given` (`alt` finds `image-alt-text`).
 */
function nearest(given: string, candidates: readonly Candidate[], limit = 3): string[] {
  const wanted = typedId(given);
  if (!wanted) return [];
  const scored = candidates
    .map((c, order) => ({ id: c.id, order, d: Math.min(...c.names.map((n) => distance(wanted, n))) }))
    .filter((c) => withinReach(wanted, c.d))
    .sort((a, b) => a.d - b.d || a.order - b.order);
  if (scored.length) return scored.slice(0, limit).map((c) => c.id);
  const words = wanted.split("-").filter((w) => w.length >= 3);
  if (!words.length) return [];
  return candidates
    .filter((c) => c.names.some((n) => words.every((w) => n.split("-").includes(w))))
    .slice(0, limit)
    .map((c) => c.id);
}

const CHECKS: Candidate[] = validationModules.map((m) => ({
  id: m.meta.id,
  names: [...new Set([m.meta.id, m.meta.slug])],
  subjectType: m.meta.subjectType,
}));
const SETS: Candidate[] = validationSets.map((s) => ({ id: s.id, names: [s.id], subjectType: s.subjectType }));

/** The check ids nearest to a given id or slug that names no check; of one subject type (a job's) when given. */
export const nearestValidationIds = (given: string, subjectType?: "url" | "email") =>
  nearest(given, subjectType ? CHECKS.filter((c) => c.subjectType === subjectType) : CHECKS);

/** The set ids nearest to a given id that names no set. */
export const nearestSetIds = (given: string) => nearest(given, SETS);

/** `details.suggestions` for unknown ids: each id as given, with its nearest (only the ids that have any). */
export function suggestionsFor(given: readonly string[], find: (id: string) => string[]): Record<string, string[]> {
  return Object.fromEntries(given.map((id) => [id, find(id)] as const).filter(([, near]) => near.length > 0));
}
