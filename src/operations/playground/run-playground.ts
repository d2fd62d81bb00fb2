import { PlaygroundRunBody, PlaygroundRun } from "../../contracts/playground";
import { JOB_REQUEST_ERRORS } from "../../domain/job-request";
import { PLAYGROUND_SESSION_SECONDS } from "../../services/playground";
import { defineOperation } from "../operation";
import { playgroundCookie, playgroundSessionOf } from "../session-cookie";

export const runPlayground = defineOperation({
  operationId: "runPlayground",
  tag: "playground",
  summary: "Run the playground's checks on a public URL or pasted HTML, without an account",
  description:
    "No key and no credits: the configured checks (web-essentials by default) at one capture size. The body becomes a job request, so a bad body gets the job request's codes. The first run sets an anonymous session cookie; a session has a run cap (PLAYGROUND_LIMIT_REACHED) and a client address a windowed limit (PLAYGROUND_RATE_LIMITED, with Retry-After); a refused run counts against neither. The run is kept in memory for a limited time (GET /api/playground/runs/{runId}).",
  http: {
    method: "post",
    path: "/api/playground/runs",
    status: 201,
    returns: "The run with its verdicts; Set-Cookie starts the anonymous session on the first run.",
  },
  auth: { kind: "public" },
  input: { body: PlaygroundRunBody, form: true },
  output: PlaygroundRun,
  errors: [
    ...JOB_REQUEST_ERRORS,
    "INVALID_ENUM_VALUE",
    "SERVICE_UNAVAILABLE",
    "PLAYGROUND_LIMIT_REACHED",
    "PLAYGROUND_RATE_LIMITED",
  ],
  example: { html: "<!doctype html><html lang=en><title>Hello</title><h1>Hello</h1>", baseUrl: "https://example.com/" },
  handle: async (input, { services, cookie, clientAddress }) => {
    const sent = playgroundSessionOf(cookie);
    const { run, sessionId } = await services.playground.run(input, { sessionId: sent, clientAddress });
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (sessionId !== sent)
      headers["set-cookie"] = playgroundCookie(sessionId, PLAYGROUND_SESSION_SECONDS, services.config);
    return Response.json(run, { status: 201, headers });
  },
});
