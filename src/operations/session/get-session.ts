import { SessionView } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

export const getSession = defineOperation({
  operationId: "getSession",
  tag: "session",
  summary: "Who is signed in",
  description:
    "The signed-in person, their organizations with roles, the organization the session acts for, and the CSRF token its state-changing requests carry.",
  http: { method: "get", path: "/api/session", returns: "The session." },
  auth: { kind: "session" },
  input: {},
  output: SessionView,
  errors: [],
  example: {},
  handle: (_input, call) => call.services.sessions.describe(sessionOf(call)),
});
