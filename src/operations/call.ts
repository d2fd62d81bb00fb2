import type { Channel } from "../../events/metadata";
import { AppError } from "../errors/app-error";
import type { Services } from "../services/facade";
import { authorize, keyMeta, sessionMeta, systemMeta } from "./authorize";
import type { Call, Operation } from "./operation";

/** What a request carries for a session operation (HTTP only). */
export interface SessionCredentials {
  /** The session cookie's secret, as sent. */
  secret: string | null;
  /** The CSRF token the request carried (X-CSRF-Token header or _csrf form field). */
  csrfToken: string | null;
  /** Whether the request changes state (any method but GET): then the CSRF token must match. */
  stateChanging: boolean;
}

interface CallContext {
  services: Services;
  operations: readonly Operation[];
  requestId: string;
  channel: Channel;
  /** The Authorization header, as sent. */
  authorization: string | null | undefined;
  session?: SessionCredentials;
  /** HTTP: the Cookie header, as sent. */
  cookie?: string | null;
  /** Where the request came from, when the surface knows (HTTP, MCP over HTTP). */
  clientAddress?: string;
  signal?: AbortSignal;
}

/**
 * A call of one operation. It acts as the system until `authorize` or `signIn` passes: then for the key's
 * organization with the key as actor, or for the session's organization with its person as actor. Surfaces
 * authorize key operations and sign in session operations before the handler; optional ones authorize inside it.
 */
export function openCall(op: Operation, ctx: CallContext): Call & { signIn(): void } {
  const call: Call & { signIn(): void } = {
    services: ctx.services,
    operations: ctx.operations,
    requestId: ctx.requestId,
    signal: ctx.signal,
    meta: systemMeta(ctx.channel, ctx.requestId),
    customerId: "",
    hasKey: !!ctx.authorization,
    session: null,
    cookie: ctx.cookie ?? null,
    clientAddress: ctx.clientAddress,
    key: null,
    authorize(customerId) {
      if (op.auth.kind !== "key" && op.auth.kind !== "optional") throw new Error(`${op.operationId} takes no key`);
      const auth = authorize(ctx.services, ctx.authorization, { scope: op.auth.scope, customerId });
      call.customerId = auth.customerId;
      call.meta = keyMeta(auth.principal, ctx.channel, ctx.requestId);
      return { customerId: call.customerId, meta: call.meta };
    },
    /** A session operation's caller: the session (AUTH_REQUIRED, then CSRF_TOKEN_INVALID), or its own key where allowed. */
    signIn() {
      if (op.auth.kind !== "session" && !(op.auth.kind === "key" && op.auth.session))
        throw new Error(`${op.operationId} takes no session`);
      if (ctx.authorization) {
        if (op.auth.kind !== "session" || !op.auth.ownKey) {
          throw new AppError("AUTH_REQUIRED", "This needs a signed-in session; API keys are refused here.", {
            requires: "session",
          });
        }
        call.key = ctx.services.accounts.authenticate(ctx.authorization);
        call.customerId = call.key.customerId;
        call.meta = keyMeta(call.key, ctx.channel, ctx.requestId);
        return;
      }
      const credentials = ctx.session;
      call.session = ctx.services.sessions.authenticate(
        credentials?.secret,
        credentials?.stateChanging ? { token: credentials.csrfToken } : undefined,
      );
      call.customerId = call.session.customerId;
      call.meta = sessionMeta(call.session.personId, ctx.channel, ctx.requestId);
    },
  };
  return call;
}
