import { Type } from "@sinclair/typebox";
import { Obj } from "../../contracts/schema-kit";
import { defineOperation, sessionOf } from "../operation";
import { clearedSessionCookie } from "../session-cookie";

const SignedOut = Obj({ signedOut: Type.Literal(true) });

export const signOut = defineOperation({
  operationId: "signOut",
  tag: "session",
  summary: "Sign out: ends the session on the server",
  http: {
    method: "post",
    path: "/api/session/signout",
    returns: "Signed out; the cookie is cleared and the session id no longer works.",
  },
  auth: { kind: "session" },
  input: {},
  output: SignedOut,
  errors: [],
  example: {},
  handle: async (_input, call) => {
    await call.services.sessions.signOut(sessionOf(call), call.meta);
    return Response.json(
      { signedOut: true },
      { headers: { "set-cookie": clearedSessionCookie(call.services.config) } },
    );
  },
});
