import type { TSchema } from "@sinclair/typebox";
import { accountEvents } from "./account";
import { creditEvents } from "./credits";
import { jobEvents } from "./jobs";

export * from "./account";
export * from "./credits";
export * from "./jobs";

/** Every event type the log accepts; an event whose type is not here, or whose data does not match, is refused at append. */
export const eventTypes: ReadonlyArray<{ name: string; schema: TSchema }> = [...accountEvents, ...creditEvents, ...jobEvents];
