/** Who caused an event and through which surface: recorded with every event and covered by its hash. */
export type Channel = "api" | "mcp" | "cli" | "dashboard" | "smtp" | "system";

export interface Actor {
  kind: "key" | "session" | "system";
  id?: string;
}

export interface EventMetadata {
  requestId?: string;
  actor: Actor;
  channel: Channel;
}
