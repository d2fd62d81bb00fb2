import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { TSchema } from "@sinclair/typebox";
import type { AssayEvent } from "../../events";
import { EventSchemaError, type EventShape, type StreamWrite } from "./event-log";

/** Every event type's schema, compiled once; an event is checked against its own at append. */
export class EventSchemas<E extends EventShape = AssayEvent> {
  private readonly validators = new Map<string, TypeCheck<TSchema>>();

  constructor(eventTypes: ReadonlyArray<{ name: E["type"]; schema: TSchema }>) {
    for (const t of eventTypes) this.validators.set(t.name, TypeCompiler.Compile(t.schema));
  }

  /** Throws EventSchemaError unless every event of the writes matches its type's schema. */
  check(writes: StreamWrite<E>[]): void {
    for (const w of writes) {
      for (const e of w.events) {
        const check = this.validators.get(e.type);
        if (!check) throw new EventSchemaError(`unknown event type ${e.type}`);
        if (!check.Check(e.data)) {
          const first = check.Errors(e.data).First();
          throw new EventSchemaError(
            `${e.type} does not match its schema: ${first?.path ?? ""} ${first?.message ?? ""}`,
          );
        }
      }
    }
  }
}
