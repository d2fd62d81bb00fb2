import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Pictures embedded in the HTML report up to this many bytes in all; the rest are written beside it. */
export const EMBED_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * The HTML report's pictures, fetched from the server with the key: each a data URL while the embedded total stays
 * within the limit, else a file in `<report>-files/` beside the report (the map holds its relative path). A picture
 * that cannot be fetched is left out (the report links to the server) and said on stderr.
 */
export async function reportImages(
  urls: readonly string[],
  conn: { baseUrl: string; key: string },
  htmlPath: string,
  limitBytes = EMBED_LIMIT_BYTES,
): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  const folder = `${basename(htmlPath).replace(/\.html?$/i, "")}-files`;
  let embedded = 0;
  for (const [i, url] of urls.entries()) {
    let res: Response;
    try {
      res = await fetch(new URL(url, `${conn.baseUrl}/`), { headers: { authorization: `Bearer ${conn.key}` } });
    } catch (e) {
      console.error(`report: could not fetch ${url}: ${(e as Error).message}`);
      continue;
    }
    if (!res.ok) {
      console.error(`report: could not fetch ${url}: HTTP ${res.status}`);
      continue;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get("content-type")?.split(";")[0] ?? "image/jpeg";
    if (embedded + bytes.length <= limitBytes) {
      embedded += bytes.length;
      images.set(url, `data:${type};base64,${Buffer.from(bytes).toString("base64")}`);
      continue;
    }
    const name = `${i}-${decodeURIComponent(new URL(url, `${conn.baseUrl}/`).pathname.split("/").pop() || "image")}`;
    mkdirSync(join(dirname(htmlPath), folder), { recursive: true });
    writeFileSync(join(dirname(htmlPath), folder, name), bytes);
    images.set(url, `${folder}/${encodeURIComponent(name)}`);
  }
  return images;
}
