import { Type } from "@sinclair/typebox";
import { literals, Obj, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { answeringOAuthErrors } from "./oauth-error";
import { DEVICE_TOKEN_ERRORS } from "../../domain/device";

const DeviceTokenBody = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: "urn:ietf:params:oauth:grant-type:device_code" })),
    device_code: Type.Optional(Type.String({ description: "The device_code POST /api/device/code answered." })),
    client_id: Type.Optional(Type.String({ description: "The client asking, as in the code request." })),
  },
  { additionalProperties: false },
);

const OAuthErrorBody = Obj(
  { error: literals(DEVICE_TOKEN_ERRORS), error_description: Str() },
  "An OAuth refusal (RFC 6749 §5.2): the RFC fixes this shape instead of the catalogued error body.",
);

const DeviceToken = Obj(
  {
    access_token: Str(),
    token_type: Type.Literal("Bearer"),
    scope: Str(),
    keyId: Str(),
    customerId: Str(),
    orgCode: Str(),
    email: Str(),
  },
  "The new key (access_token, shown only here) of the organization the person approved for, and that person's email.",
);

export const exchangeDeviceCode = defineOperation({
  operationId: "exchangeDeviceCode",
  tag: "session",
  summary: "Poll for the key a device sign-in was approved with (RFC 8628)",
  description:
    "grant_type=urn:ietf:params:oauth:grant-type:device_code with the device_code, as a form or JSON. Until approved it answers 400 with RFC 8628's `{ error, error_description }`: authorization_pending (poll again after interval seconds), slow_down (polled too fast: wait 5 seconds longer from now on, up to 60 seconds; a poll records nothing), access_denied, expired_token; invalid_grant for an unknown or used code, unsupported_grant_type for another grant. Once approved: a new key (access_token, shown only here), its keyId and scopes, the organization approved for and the approver's email. A code gives one key only.",
  http: {
    method: "post",
    path: "/api/device/token",
    returns: "The key, minted for the organization the person approved.",
    otherErrors: {
      400: {
        description:
          "An OAuth refusal (RFC 8628 §3.5): authorization_pending, slow_down, access_denied, expired_token, invalid_grant, unsupported_grant_type, invalid_request.",
        schema: OAuthErrorBody,
      },
    },
  },
  auth: { kind: "public" },
  input: { body: DeviceTokenBody, form: true },
  output: DeviceToken,
  errors: [],
  example: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "the-device-code" },
  handle: (input, { services, meta }) => answeringOAuthErrors(() => services.device.token(input, meta)),
});
