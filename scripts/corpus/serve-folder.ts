import { existsSync, statSync } from "node:fs";
import { join, normalize } from "node:path";

/** A static server for one folder, on loopback: a case's pages see their own root, as on their own site. */
export function serveFolder(root: string) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = normalize(decodeURIComponent(new URL(req.url).pathname)).replace(/^(\.\.[/\\])+/, "");
      let file = join(root, path);
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
      if (!file.startsWith(root) || !existsSync(file)) return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
}
