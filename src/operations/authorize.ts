import type { Scope } from "../domain/accounts";
import type { Principal } from "../services/accounts";
import type { Channel, EventMetadata } from "../../events/metadata";
import type { Services } from "../services/facade";

interface Authorization {
  principal: Principal;
  /** The organization the call acts for: the key's own, or the one it names when that is the key's. */
  customerId: string;
}

/**
 * The one authorization of a key, for every surface, in this order: a live key (AUTH_REQUIRED), its scope
 * (INSUFFICIENT_SCOPE), then the organization (CUSTOMER_NOT_FOUND, CUSTOMER_SCOPE_MISMATCH). `customerId` may
 * be a function, read only once the key and its scope passed: HTTP reads its input there, so a call without a
 * key is refused before its body is looked at.
 */
export function authorize(
  services: Pick<Services, "accounts">,
  credential: string | null | undefined,
  { scope, customerId }: { scope: Scope; customerId?: unknown },
): Authorization {
  const principal = services.accounts.authenticate(credential);
  services.accounts.requireScope(principal, scope);
  const named = typeof customerId === "function" ? customerId() : customerId;
  return { principal, customerId: services.accounts.resolveCustomer(principal, named) };
}

/** The event metadata of a call made with a key. */
export const keyMeta = (principal: Principal, channel: Channel, requestId: string): EventMetadata => ({
  requestId,
  actor: { kind: "key", id: principal.key.keyId },
  channel,
});

/** The event metadata of a call made in a signed-in session: the person is the actor. */
export const sessionMeta = (personId: string, channel: Channel, requestId: string): EventMetadata => ({
  requestId,
  actor: { kind: "session", id: personId },
  channel,
});

/** The event metadata of a call made without one. */
export const systemMeta = (channel: Channel, requestId: string): EventMetadata => ({
  requestId,
  actor: { kind: "system" },
  channel,
});

/** The customerId a call names: in its input, or (HTTP job bodies) in the query string. */
export function customerIdOf(input: unknown, query: Record<string, unknown> = {}): unknown {
  const named =
    input && typeof input === "object" && "customerId" in input
      ? (input as { customerId: unknown }).customerId
      : undefined;
  return named ?? query.customerId;
}
