import { Type, type TSchema, type Static } from "@sinclair/typebox";

/** Declares one event type: its name and the TypeBox schema its data must match at append. */
export function eventType<N extends string, S extends TSchema>(name: N, schema: S) {
  return { name, schema } as const;
}

export interface EventTypeDef {
  readonly name: string;
  readonly schema: TSchema;
}

/** The static type of an event type's data, derived from its schema. */
export type EventData<E extends EventTypeDef> = Static<E["schema"]>;

/** The events a list of event types declares, as a union discriminated by `type`. */
export type EventUnion<L extends ReadonlyArray<EventTypeDef>> = L[number] extends infer E
  ? E extends EventTypeDef
    ? { type: E["name"]; data: EventData<E> }
    : never
  : never;

export const Id = Type.String({ minLength: 1, maxLength: 200 });
export const Credits = Type.Integer({ minimum: 0 });
/** A SHA-256 in hex: what the log keeps of a secret, never the secret. */
export const Sha256Hex = Type.String({ pattern: "^[0-9a-f]{64}$" });
/** A UTC time as Date.toISOString writes it, so that times compare as strings. */
export const Instant = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$" });
