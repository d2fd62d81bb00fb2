import { AppError } from "../errors/app-error";
import { newRequestId } from "../services/ids";

const requestIds = new WeakMap<Request, string>();
const clientAddresses = new WeakMap<Request, string>();

/**
 * Records where a request came from (the app's first hook does, with Bun's server). Behind a reverse proxy
 * (ASSAY_TRUST_FORWARDED_FOR=1) it is the last X-Forwarded-For entry, the address the nearest proxy saw.
 */
export function noteClientAddress(
  request: Request,
  socketAddress: string | undefined,
  trustForwardedFor: boolean,
): void {
  const forwarded = trustForwardedFor ? request.headers.get("x-forwarded-for")?.split(",").pop()?.trim() : undefined;
  const address = forwarded || socketAddress;
  if (address) clientAddresses.set(request, address);
}

/** The client's address, for per-address limits; never written to the event log. */
export function clientAddressOf(request: Request): string | undefined {
  return clientAddresses.get(request);
}

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
