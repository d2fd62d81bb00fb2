import { Type, type TProperties, type TSchema } from "@sinclair/typebox";

/**
 * What the wire schemas are written with. A success body is exact: every object lists its fields and allows no
 * others, so the tests (which check every body they receive against its operation's output schema) fail when a
 * service's answer and its documentation part. Values that are free-form by nature (a parameter's JSON Schema, a
 * job subject) are typed as such, never as an open object.
 */

/** An exact object: these fields, no others. */
export const Obj = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
export const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
export const Opt = Type.Optional;
export const Str = (description?: string) => Type.String(description ? { description } : {});
export const Int = () => Type.Integer();
export const Bool = () => Type.Boolean();
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const AnyJson = () => Type.Unknown();
export const Dict = <T extends TSchema>(t: T) => Type.Record(Type.String(), t);

/** A schema as plain JSON Schema (TypeBox's symbols and undefined members dropped). */
export function jsonSchemaOf(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema));
}
