import { Elysia } from "elysia";
import type { Assay } from "../app";
import { authorize } from "./request";

const image = (row: { contentType: string }, data: Uint8Array, cache: string) =>
  new Response(data as Uint8Array<ArrayBuffer>, { headers: { "content-type": row.contentType, "cache-control": cache } });

export function captureRoutes(assay: Assay) {
  return new Elysia()
    .get("/api/captures/:key", ({ request, params, query }) => {
      const { customerId } = authorize(assay, request, "jobs:read", query.customerId);
      const { row, data } = assay.captures.read(customerId, params.key);
      return image(row, data, "private, max-age=31536000, immutable");
    })
    .get("/api/captures/:key/shared", ({ params, query }) => {
      const { row, data } = assay.captures.readShared(params.key, query.expires ?? "", query.signature ?? "");
      return image(row, data, "private, no-store");
    });
}
