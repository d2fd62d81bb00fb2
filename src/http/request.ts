import { AppError } from "../errors/app-error";
import { newRequestId } from "../services/ids";

const requestIds = new WeakMap<Request, string>();

/** One id per HTTP request: in the response header, error bodies, logs and event metadata. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) requestIds.set(request, (id = newRequestId()));
  return id;
}

/** The body as parsed JSON, refusing another content type or malformed JSON with INVALID_REQUEST_BODY. */
export function jsonBody(request: Request, body: unknown): unknown {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError("INVALID_REQUEST_BODY", "Send the body as application/json.", { contentType: type || null });
  }
  try {
    return JSON.parse(typeof body === "string" ? body : "");
  } catch (e) {
    throw new AppError("INVALID_REQUEST_BODY", "The body is not valid JSON.", { parseError: (e as Error).message });
  }
}
