import { DeviceTokenError } from "../../domain/device";

/**
 * RFC 6749 §5.2: an OAuth refusal is 400 with `{ error, error_description }`; other errors keep the catalogued body.
 * A per-address limit is one of those (429 DEVICE_CODE_RATE_LIMITED with Retry-After): OAuth names no error for
 * it, and HTTP's 429 and Retry-After (RFC 6585, RFC 9110) say it to any client.
 */
export async function answeringOAuthErrors(run: () => unknown): Promise<Response> {
  try {
    return Response.json(await run(), { headers: { "cache-control": "no-store" } });
  } catch (e) {
    if (!(e instanceof DeviceTokenError)) throw e;
    return Response.json(
      { error: e.error, error_description: e.description },
      { status: 400, headers: { "cache-control": "no-store" } },
    );
  }
}
