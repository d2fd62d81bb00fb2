import type { Channel } from "../../events/metadata";
import type { Services } from "../services/facade";
import { authorize, keyMeta, systemMeta } from "./authorize";
import type { Call, Operation } from "./operation";

interface CallContext {
  services: Services;
  operations: readonly Operation[];
  requestId: string;
  channel: Channel;
  /** The Authorization header, as sent. */
  authorization: string | null | undefined;
  signal?: AbortSignal;
}

/**
 * A call of one operation. It acts as the system until `authorize` passes: then for the key's organization,
 * with the key as actor. Surfaces authorize key operations before the handler; optional ones authorize inside it.
 */
export function openCall(op: Operation, ctx: CallContext): Call {
  const call: Call = {
    services: ctx.services,
    operations: ctx.operations,
    requestId: ctx.requestId,
    signal: ctx.signal,
    meta: systemMeta(ctx.channel, ctx.requestId),
    customerId: "",
    hasKey: !!ctx.authorization,
    authorize(customerId) {
      if (op.auth.kind !== "key" && op.auth.kind !== "optional") throw new Error(`${op.operationId} takes no key`);
      const auth = authorize(ctx.services, ctx.authorization, { scope: op.auth.scope, customerId });
      call.customerId = auth.customerId;
      call.meta = keyMeta(auth.principal, ctx.channel, ctx.requestId);
      return { customerId: call.customerId, meta: call.meta };
    },
  };
  return call;
}
