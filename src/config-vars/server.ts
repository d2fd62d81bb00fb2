import type { VarSpec } from "./declaration";

/** The section "Server" (CONFIG_SECTIONS.server), in the order docs/configuration.md lists it. */
export const SERVER_VARS = {
  PORT: { section: "server", kind: "integer", default: 8080, doc: "HTTP port." },
  SMTP_PORT: { section: "server", kind: "integer", default: 2525, doc: "SMTP inbox port (email jobs)." },
  DATA_DIR: {
    section: "server",
    kind: "path",
    default: "./data",
    doc: "This node's files: the SQLite event log (`assay.sqlite`), or with PostgreSQL this node's copy of the log and its read models (`assay-replica.sqlite`); its node id (`node-id`); and, unless `ASSAY_SHARED_DIR` is set, stored captures and received messages.",
  },
  PUBLIC_BASE_URL: {
    section: "server",
    kind: "url",
    defaultText: "`http://localhost:$PORT`",
    doc: "The address links in responses point at.",
  },
  ASSAY_TRUST_FORWARDED_FOR: {
    section: "server",
    kind: "flag",
    doc: "`1` behind a reverse proxy: the client's address is the last `X-Forwarded-For` entry (what the proxy saw), not the socket's. Leave unset otherwise, or anyone could claim any address.",
  },
} as const satisfies Record<string, VarSpec & { section: "server" }>;
