import type { VarSpec } from "./declaration";

/** The section "Storage and several nodes" (CONFIG_SECTIONS.cluster), in the order docs/configuration.md lists it. */
export const CLUSTER_VARS = {
  ASSAY_DATABASE_URL: {
    section: "cluster",
    kind: "url",
    doc: "`postgres://user:password@host:port/database`: the event log in PostgreSQL, shared by every node that names it ([scaling](scaling.md)); unset, one SQLite file in `DATA_DIR`. Anything but a postgres URL stops the start.",
  },
  ASSAY_SHARED_DIR: {
    section: "cluster",
    kind: "path",
    defaultText: "`DATA_DIR`",
    doc: "Where screenshots, received messages and the share-link secret live: with several nodes, a directory every node mounts (NFS or the like), so any node serves any capture and any node's inbox can be checked by another.",
  },
  ASSAY_S3_BUCKET: {
    section: "cluster",
    kind: "text",
    doc: "Keep screenshots and received messages in this S3 bucket instead of `ASSAY_SHARED_DIR` (through Bun's own S3 client): with several nodes, a bucket every node reaches.",
  },
  ASSAY_S3_ENDPOINT: {
    section: "cluster",
    kind: "url",
    defaultText: "AWS",
    doc: "The `http(s)://` address of an S3-compatible service (MinIO, Ceph, R2, …); anything else stops the start.",
  },
  ASSAY_S3_REGION: {
    section: "cluster",
    kind: "text",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's region.",
  },
  ASSAY_S3_ACCESS_KEY_ID: {
    section: "cluster",
    kind: "text",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's access key id.",
  },
  ASSAY_S3_SECRET_ACCESS_KEY: {
    section: "cluster",
    kind: "secret",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's secret access key.",
  },
  ASSAY_NODE_ID: {
    section: "cluster",
    kind: "text",
    defaultText: "made at first start, kept in `DATA_DIR/node-id`",
    doc: "This node's name among those sharing a database (1–64 letters, digits, `.`, `_`, `-`); recorded with every event it appends, so its running jobs are known as its own.",
  },
  ASSAY_NODE_TIMEOUT_SECONDS: {
    section: "cluster",
    kind: "integer",
    min: 2,
    default: 30,
    doc: "A node not heard from this long (it says it is alive every third of it) is taken for dead: another node closes the webpage jobs it was running as interrupted, refunded, and checks the messages its inbox took.",
  },
  ASSAY_SHARE_SECRET: {
    section: "cluster",
    kind: "secret",
    defaultText:
      "random: kept in the PostgreSQL database when nodes share one, else in `ASSAY_SHARED_DIR/share-link.secret`",
    doc: "Key that signs screenshot share links (every node must sign with the same one).",
  },
  ASSAY_SHARE_TTL_SECONDS: {
    section: "cluster",
    kind: "integer",
    default: 900,
    doc: "Lifetime of a screenshot share link (15 minutes).",
  },
} as const satisfies Record<string, VarSpec & { section: "cluster" }>;
