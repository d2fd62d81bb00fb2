import { Type } from "@sinclair/typebox";
import { Obj, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { answeringOAuthErrors } from "./oauth-error";

const DeviceCodeBody = Type.Object(
  {
    client_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The client asking, e.g. assay-cli; it names the key minted.",
      }),
    ),
    scope: Type.Optional(
      Type.String({
        description:
          "Space-separated scopes the key should hold (jobs:read jobs:write account:read feedback:write webhooks:write); default all of them.",
      }),
    ),
  },
  { additionalProperties: false },
);

const DeviceAuthorization = Obj(
  {
    device_code: Str(),
    user_code: Str(),
    verification_uri: Str(),
    verification_uri_complete: Str(),
    expires_in: Type.Integer(),
    interval: Type.Integer(),
  },
  "RFC 8628 §3.2: show user_code and verification_uri to the person, then poll POST /api/device/token every interval seconds.",
);

export const requestDeviceCode = defineOperation({
  operationId: "requestDeviceCode",
  tag: "session",
  summary: "Start a device sign-in (RFC 8628): a code for the person to approve",
  description:
    'For a command-line client. Show user_code and verification_uri (or open verification_uri_complete) to the person, who approves on the /device page while signed in; meanwhile poll POST /api/device/token. A form or JSON body; scope is space-separated (default every scope, never beyond the approver\'s role). An unknown scope is 400 `{ error: "invalid_scope" }`. Past ASSAY_DEVICE_CODES_PER_ADDRESS codes from one client address per code lifetime it is 429 DEVICE_CODE_RATE_LIMITED with Retry-After, a catalogued error (OAuth has no code for it).',
  http: {
    method: "post",
    path: "/api/device/code",
    returns:
      "The device authorization: device_code (keep it secret), user_code, verification_uri, expires_in, interval.",
  },
  auth: { kind: "public" },
  input: { body: DeviceCodeBody, form: true },
  output: DeviceAuthorization,
  errors: ["DEVICE_CODE_RATE_LIMITED"],
  example: { client_id: "assay-cli", scope: "jobs:read jobs:write" },
  handle: (input, { services, meta, clientAddress }) =>
    answeringOAuthErrors(() => services.device.issue(input, meta, clientAddress)),
});
