import { Type } from "@sinclair/typebox";
import { Int, Obj, Str } from "../../contracts/schema-kit";
import { customerId } from "../../contracts/request-parts";
import { AppError } from "../../errors/app-error";
import { WithContent, defineOperation } from "../operation";
import { READ } from "../words";

const CaptureRef = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        description:
          "A result's screenshotUrl (needs your key) or screenshotShareUrl (no key needed while it is valid), or any captures[].screenshotUrl.",
      }),
    ),
    key: Type.Optional(
      Type.String({ description: "A capture key (the last path segment of a screenshotUrl); needs your key." }),
    ),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const CaptureInfo = Obj({ key: Str(), jobId: Str(), viewport: Str(), contentType: Str(), bytes: Int(), sha256: Str() });

const SHARE_PATH = /\/api\/captures\/([^/?#]+)\/shared$/;
const OWNER_PATH = /\/api\/captures\/([^/?#]+)$/;

function parseCaptureUrl(raw: string): { key: string; shared?: { expires: string; signature: string } } {
  let url: URL;
  try {
    url = new URL(raw, "http://assay.invalid");
  } catch {
    throw new AppError("INVALID_REQUEST_BODY", "url is not a URL.", {
      problems: [{ path: "url", message: "Expected a screenshotUrl or screenshotShareUrl" }],
    });
  }
  const shared = SHARE_PATH.exec(url.pathname);
  if (shared)
    return {
      key: decodeURIComponent(shared[1]!),
      shared: { expires: url.searchParams.get("expires") ?? "", signature: url.searchParams.get("signature") ?? "" },
    };
  const owned = OWNER_PATH.exec(url.pathname);
  if (owned) return { key: decodeURIComponent(owned[1]!) };
  throw new AppError(
    "STORAGE_OBJECT_NOT_FOUND",
    "This is not a capture URL: expected a result's screenshotUrl or screenshotShareUrl.",
    { url: raw },
  );
}

const isShareLink = (args: Record<string, unknown>) =>
  typeof args.url === "string" && SHARE_PATH.test(new URL(args.url, "http://assay.invalid").pathname);

export const fetchCapture = defineOperation({
  operationId: "fetchCapture",
  tag: "jobs",
  summary: "A screenshot as an MCP image, by screenshotUrl, capture key or share link",
  mcp: {
    name: "fetch_capture",
    title: "Fetch a screenshot",
    description:
      "A captured screenshot as an image. Give a result's screenshotUrl (or a capture key) with your API key, or a screenshotShareUrl without one while the link is valid.",
    annotations: { title: "Fetch a screenshot", ...READ },
    summary: (data) => `Screenshot ${data.key} at ${data.viewport} (${data.contentType}, ${data.bytes} bytes).`,
  },
  auth: { kind: "optional", scope: "jobs:read", needsKey: (args) => !isShareLink(args) },
  input: { body: CaptureRef },
  output: CaptureInfo,
  errors: ["STORAGE_OBJECT_NOT_FOUND"],
  example: { key: "job_example-desktop-md.jpg" },
  async handle(input, call) {
    if (input.url === undefined && input.key === undefined) {
      throw new AppError("MISSING_REQUIRED_FIELD", "Give url (a screenshotUrl or screenshotShareUrl) or key.", {
        field: "url",
        oneOf: ["url", "key"],
      });
    }
    if (input.url !== undefined && input.key !== undefined) {
      throw new AppError("INVALID_REQUEST_BODY", "Give url or key, not both.", {
        problems: [{ path: "key", message: "Not allowed together with url" }],
      });
    }
    const ref = input.url !== undefined ? parseCaptureUrl(input.url) : { key: input.key as string };
    const { row, data: bytes } = await (ref.shared
      ? call.services.captures.readShared(ref.key, ref.shared.expires, ref.shared.signature)
      : call.services.captures.read(call.authorize(input.customerId).customerId, ref.key));
    return new WithContent(
      {
        key: row.key,
        jobId: row.jobId,
        viewport: row.viewport,
        contentType: row.contentType,
        bytes: row.bytes,
        sha256: row.sha256,
      },
      [{ type: "image", data: Buffer.from(bytes).toString("base64"), mimeType: row.contentType }],
    );
  },
});
