/** A stored screenshot as an HTTP response. */
export const imageResponse = (row: { contentType: string }, data: Uint8Array, cacheControl: string) =>
  new Response(data as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": row.contentType, "cache-control": cacheControl },
  });
