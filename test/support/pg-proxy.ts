import { createServer, connect, type Socket } from "node:net";

/**
 * A TCP proxy between Assay and a PostgreSQL server, which a test tells when to cut a connection: at the COMMIT of
 * the next transaction that carried a marker (an event type, a stream id), either after forwarding the COMMIT to
 * the server (the server commits, the client never hears it: a lost acknowledgement) or instead of forwarding it
 * (the server never sees it and rolls back). It reads the client's side of the protocol only as far as it must:
 * message frames, BEGIN and COMMIT.
 */
export interface PgProxy {
  /** The target URL's database, reached through the proxy. */
  url: string;
  /**
   * Arms a cut at the next COMMIT of a transaction whose messages carried `marker`: `lose-ack` forwards the COMMIT,
   * closes the client's side at once and discards what the server answers; `drop-commit` closes both sides without
   * forwarding it. `afterCut` says what the database is from the cut until restore(): `refuse`, unreachable (every
   * connection closed, new ones closed at once); `hold`, silent (nothing any client sends is forwarded until
   * restore(), so a test acts in between). Resolves once the server has ended that transaction (answered the
   * COMMIT, or lost the session).
   */
  cutAtCommit(
    marker: string,
    how: "lose-ack" | "drop-commit",
    options?: { afterCut?: "refuse" | "hold" },
  ): Promise<void>;
  /** Forwards again, first what was held. */
  restore(): void;
  /** How many connections the proxy has cut. */
  readonly cuts: number;
  stop(): Promise<void>;
}

/** Values of a StartupMessage's protocol field that are requests instead (SSLRequest, GSSENCRequest, CancelRequest). */
const STARTUP_REQUESTS = new Set([80877103, 80877104, 80877102]);

type Mode = "forward" | "refuse" | "hold";

interface Armed {
  marker: string;
  how: "lose-ack" | "drop-commit";
  afterCut: Mode;
  done: () => void;
}

export async function startPgProxy(targetUrl: string): Promise<PgProxy> {
  const target = new URL(targetUrl);
  let armed: Armed | null = null;
  let mode: Mode = "forward";
  /** What clients sent while the database was held, in order, to forward at restore(). */
  const held: Array<() => void> = [];
  /** Every proxied connection, closed together when the database becomes unreachable. */
  const connections = new Set<{ client: Socket; upstream: Socket }>();
  let cuts = 0;

  const enter = (next: Mode) => {
    mode = next;
    if (next !== "refuse") return;
    for (const { client, upstream } of connections) {
      client.destroy();
      upstream.destroy();
    }
  };

  const server = createServer((client) => {
    if (mode === "refuse") {
      client.destroy();
      return;
    }
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    const connection = { client, upstream };
    connections.add(connection);
    let pending = Buffer.alloc(0);
    let startup = true;
    /** Whether the transaction under way carried the armed marker. */
    let carried = false;
    let cut = false;
    const send = (message: Buffer) =>
      mode === "hold" ? held.push(() => upstream.write(message)) : upstream.write(message);

    upstream.on("data", (bytes) => {
      if (!cut) client.write(bytes);
    });
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => {
      connections.delete(connection);
      client.destroy();
    });
    client.on("error", () => upstream.destroy());
    client.on("close", () => {
      if (!cut) upstream.end();
    });

    client.on("data", (bytes: Buffer) => {
      if (cut) return;
      pending = Buffer.concat([pending, bytes]);
      for (;;) {
        const frame = nextFrame(pending, startup);
        if (!frame) return;
        const message = pending.subarray(0, frame.length);
        pending = pending.subarray(frame.length);
        if (startup && !STARTUP_REQUESTS.has(message.readInt32BE(4))) startup = false;
        const query =
          frame.type === "Q"
            ? message
                .subarray(5, message.length - 1)
                .toString("utf8")
                .trim()
                .toUpperCase()
            : null;
        if (query === "BEGIN") carried = false;
        if (armed && message.includes(armed.marker)) carried = true;
        if (armed && carried && query === "COMMIT") {
          const cutNow = armed;
          armed = null;
          cut = true;
          cuts++;
          connections.delete(connection);
          upstream.once("close", cutNow.done);
          if (cutNow.how === "lose-ack") {
            upstream.write(message);
            // The server's answer to COMMIT (not forwarded: `cut`) means it has committed; then the session ends.
            upstream.once("data", () => upstream.end());
          } else {
            upstream.end();
          }
          client.destroy();
          enter(cutNow.afterCut);
          return;
        }
        send(message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as { port: number }).port);

  return {
    url: url.toString(),
    get cuts() {
      return cuts;
    },
    cutAtCommit(marker, how, options = {}) {
      if (armed) throw new Error("a cut is already armed");
      return new Promise((resolve) => {
        armed = { marker, how, afterCut: options?.afterCut ?? "forward", done: resolve };
      });
    },
    restore() {
      mode = "forward";
      for (const write of held.splice(0)) write();
    },
    async stop() {
      for (const { client, upstream } of connections) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The next whole message the client sent, if it has all arrived: during startup a message is its length and body;
 * after it, a type byte, then the length (which counts itself).
 */
function nextFrame(bytes: Buffer, startup: boolean): { type: string | null; length: number } | null {
  if (startup) {
    if (bytes.length < 8) return null;
    const length = bytes.readInt32BE(0);
    return bytes.length >= length ? { type: null, length } : null;
  }
  if (bytes.length < 5) return null;
  const length = 1 + bytes.readInt32BE(1);
  return bytes.length >= length ? { type: String.fromCharCode(bytes[0]!), length } : null;
}
