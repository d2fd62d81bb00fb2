import { eventHash, GENESIS_HASH } from "../store/hash-chain";
import type { EventLog, StoredEvent } from "../store/event-log";
import { isCreditEvent } from "../../events";
import { evolve } from "../domain/credits";
import { allBalances } from "../../projections/credits";
import type { ReadModels } from "../../projections/projection";

export interface LedgerProblem {
  position?: number;
  customerId?: string;
  message: string;
}

export interface LedgerReport {
  ok: boolean;
  events: number;
  creditEvents: number;
  customers: number;
  balances: Record<string, number>;
  problems: LedgerProblem[];
}

/**
 * What an auditor runs: checks every event's hash against its predecessor and its own content,
 * recomputes every balance from credit events alone, and compares with the read model.
 */
export async function verifyLedger(
  log: EventLog,
  readModels: ReadModels,
  onlyCustomer?: string,
): Promise<LedgerReport> {
  // On PostgreSQL the log read is the shared one, and the read models compared are this node's, brought to its head first.
  await log.catchUp();
  return auditLog(log.readLog(), allBalances(readModels), onlyCustomer);
}

/**
 * The audit over any log's events in position order: the chain (positions, links, hashes) and every balance
 * recomputed from credit events alone, compared with `projected` (a read model's balances) when given.
 */
export async function auditLog(
  log: AsyncIterable<StoredEvent>,
  projected: Map<string, number> | null,
  onlyCustomer?: string,
): Promise<LedgerReport & { head: { position: number; hash: string } }> {
  const problems: LedgerProblem[] = [];
  const balances = new Map<string, number>();
  let prevHash = GENESIS_HASH;
  let expectedPosition = 1;
  let events = 0;
  let creditEvents = 0;
  let position = 0;
  for await (const e of log) {
    position = e.position;
    events++;
    if (e.position !== expectedPosition)
      problems.push({ position: e.position, message: `gap in positions: expected ${expectedPosition}` });
    expectedPosition = e.position + 1;
    if (e.prevHash !== prevHash) problems.push({ position: e.position, message: "previous-hash link is broken" });
    if (eventHash(e.prevHash, e) !== e.hash)
      problems.push({ position: e.position, message: "content does not match its hash (the event was altered)" });
    prevHash = e.hash;
    if (!e.streamId.startsWith("credits-")) continue;
    if (!isCreditEvent(e)) {
      problems.push({ position: e.position, message: `${e.type} on a credit stream, which holds credit events only` });
      continue;
    }
    const customerId = e.data.customerId;
    if (e.streamId !== `credits-${customerId}`)
      problems.push({ position: e.position, customerId, message: "credit event on another organization's stream" });
    if (onlyCustomer && customerId !== onlyCustomer) continue;
    creditEvents++;
    const amount: unknown = e.data.amount;
    if (!Number.isSafeInteger(amount) || (amount as number) < 0) {
      problems.push({
        position: e.position,
        customerId,
        message: `amount ${String(amount)} is not a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
      });
    }
    const balance = evolve({ balance: balances.get(customerId) ?? 0 }, e).balance;
    if (balance < 0) problems.push({ position: e.position, customerId, message: `balance went negative (${balance})` });
    if (!Number.isSafeInteger(balance))
      problems.push({
        position: e.position,
        customerId,
        message: `balance ${balance} is past what is counted exactly (${Number.MAX_SAFE_INTEGER})`,
      });
    balances.set(customerId, balance);
  }
  for (const [customerId, balance] of balances) {
    if (projected && projected.get(customerId) !== balance) {
      problems.push({ customerId, message: `read model says ${projected.get(customerId)}, the events say ${balance}` });
    }
  }
  if (projected && !onlyCustomer) {
    for (const customerId of projected.keys()) {
      if (!balances.has(customerId))
        problems.push({ customerId, message: "read model has a balance with no credit events" });
    }
  }
  return {
    ok: problems.length === 0,
    events,
    creditEvents,
    customers: balances.size,
    balances: Object.fromEntries(balances),
    problems,
    head: { position, hash: prevHash },
  };
}
