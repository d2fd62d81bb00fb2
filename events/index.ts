import { accountEvents } from "./account";
import { creditEvents } from "./credits";
import { deviceEvents } from "./device";
import { feedbackEvents } from "./feedback";
import { jobEvents } from "./jobs";
import { memberEvents } from "./members";
import { peopleEvents } from "./people";
import { webhookEvents } from "./webhooks";
import { runEvents } from "./runs";
import type { EventUnion } from "./shared";

export * from "./account";
export * from "./credits";
export * from "./device";
export * from "./feedback";
export * from "./jobs";
export * from "./members";
export * from "./people";
export * from "./webhooks";
export * from "./runs";

/**
 * Every event type the log accepts; an event whose type is not here, or whose data does not match, is refused at append.
 * The one list the event union below is derived from, so the runtime check and the compile-time types cannot drift.
 */
export const eventTypes = [
  ...accountEvents,
  ...peopleEvents,
  ...memberEvents,
  ...deviceEvents,
  ...creditEvents,
  ...jobEvents,
  ...feedbackEvents,
  ...webhookEvents,
  ...runEvents,
] as const;

/** Every event the log holds, discriminated by `type`, its `data` the static type of that event's schema. */
export type AssayEvent = EventUnion<typeof eventTypes>;
export type EventName = AssayEvent["type"];
export type EventOf<N extends EventName> = Extract<AssayEvent, { type: N }>;
