import { Type, type TSchema, type Static } from "@sinclair/typebox";

/** Declares one event type: its name and the TypeBox schema its data must match at append. */
export function eventType<N extends string, S extends TSchema>(name: N, schema: S) {
  return { name, schema } as const;
}

export type EventData<E extends { schema: TSchema }> = Static<E["schema"]>;

export const Id = Type.String({ minLength: 1, maxLength: 200 });
export const Credits = Type.Integer({ minimum: 0 });
