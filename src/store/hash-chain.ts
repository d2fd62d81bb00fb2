import type { EventMetadata } from "../../events/metadata";
import { canonicalJson, sha256Hex } from "./canonical";
import type { EventEnvelope, EventShape, StoredEvent, StreamWrite } from "./event-log";

export const GENESIS_HASH = "0".repeat(64);

/** The hash of one event: SHA-256 over the previous hash and the event in canonical JSON. */
export function eventHash(prevHash: string, e: Omit<EventEnvelope, "prevHash" | "hash"> & EventShape): string {
  return sha256Hex(
    `${prevHash}\n${canonicalJson({
      position: e.position,
      streamId: e.streamId,
      streamVersion: e.streamVersion,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recordedAt: e.recordedAt,
    })}`,
  );
}

/**
 * One append's events, numbered after `head` (the log's last event, or none) and chained to it, recorded now;
 * `starts` is each write's stream version before it.
 */
export function chainEvents<E extends EventShape>(
  writes: StreamWrite<E>[],
  starts: number[],
  head: { position: number; hash: string } | null,
  metadata: EventMetadata,
): StoredEvent<E>[] {
  let position = head?.position ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  const recordedAt = new Date().toISOString();
  const stored: StoredEvent<E>[] = [];
  writes.forEach((w, k) => {
    let version = starts[k]!;
    for (const e of w.events) {
      const base = {
        position: ++position,
        streamId: w.streamId,
        streamVersion: ++version,
        type: e.type,
        data: e.data,
        metadata,
        recordedAt,
      };
      const hash = eventHash(prevHash, base);
      // type and data are e's own, so this is e recorded; spelt out to keep the envelope's field order.
      stored.push({ ...base, prevHash, hash } as StoredEvent<E>);
      prevHash = hash;
    }
  });
  return stored;
}
