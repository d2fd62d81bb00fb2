/** Who caused an event and through which surface: recorded with every event and covered by its hash. */
export type Channel = "api" | "mcp" | "cli" | "dashboard" | "smtp" | "system";

export interface Actor {
  kind: "key" | "session" | "operator" | "system";
  /** The key's id for a key; the signed-in person's id for a session; the operator's login name for the operator. */
  id?: string;
}

export interface EventMetadata {
  requestId?: string;
  actor: Actor;
  channel: Channel;
  /** The Assay node that appended it, when several share one PostgreSQL log: the owner of the work it started. */
  node?: string;
}
