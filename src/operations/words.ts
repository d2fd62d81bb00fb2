import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/** The annotations of a tool that only reads our own data. */
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } satisfies ToolAnnotations;

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
