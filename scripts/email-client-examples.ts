import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encode as encodeJpeg } from "jpeg-js";
import { decodedScreenshot } from "../src/capture/screenshot-codec";
import type { ClientRender } from "../src/catalog/email-client-examples";
import { startServer } from "../test/support/harness";
import { runEmailMessage } from "../test/support/fixture-runs";

/**
 * `npm run email-client-examples`: delivers the showcase message (test/fixtures/email-clients/showcase.eml) over
 * SMTP to one email job that renders it in every client the server offers (GET /api/email-clients: each client and
 * its dark variant, at its form factor), and writes what the job reported into src/catalog/email-clients/: each
 * render's screenshot, downscaled to at most IMAGE_WIDTH px wide and cut at IMAGE_MAX_HEIGHT, and index.json with
 * its change list, rule sources and the client's engine. images.ts embeds the screenshots in the binary. The
 * catalog's client pages show them (src/http/pages/catalog/email-client-pages.ts); re-run after changing a profile.
 */

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "src", "catalog", "email-clients");
const SHOWCASE = "test/fixtures/email-clients/showcase.eml";
const IMAGE_WIDTH = 480;
const IMAGE_MAX_HEIGHT = 2400;
const JPEG_QUALITY = 62;
/** The check whose renders are recorded: any visual email check renders every client it is given. */
const CHECK = "email-cta-visible";

interface ClientView {
  id: string;
  name: string;
  engine: string;
  colorScheme: "light" | "dark";
  lightVariant?: string;
}

/** Area-averaged downscale to `width` (never up), rows past `maxHeight` (after scaling) cut. */
function downscaled(image: { width: number; height: number; data: Uint8Array }, width: number, maxHeight: number) {
  const scale = Math.min(1, width / image.width);
  const w = Math.round(image.width * scale);
  const h = Math.min(maxHeight, Math.round(image.height * scale));
  const out = new Uint8Array(w * h * 4);
  const step = 1 / scale;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * step);
    const y1 = Math.min(image.height, Math.max(y0 + 1, Math.floor((y + 1) * step)));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * step);
      const x1 = Math.min(image.width, Math.max(x0 + 1, Math.floor((x + 1) * step)));
      const sum = [0, 0, 0];
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * image.width + sx) * 4;
          sum[0]! += image.data[i]!;
          sum[1]! += image.data[i + 1]!;
          sum[2]! += image.data[i + 2]!;
        }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      out[o] = sum[0]! / n;
      out[o + 1] = sum[1]! / n;
      out[o + 2] = sum[2]! / n;
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out, cut: h < Math.round(image.height * scale) };
}

// Apple Mail in WebKit, its own engine: the showcase shows each client in the engine it uses.
const server = await startServer({
  ASSAY_BROWSER_POOL_SIZE: "2",
  ASSAY_SIGNUP_CREDITS: "100000",
  ASSAY_APPLE_MAIL_IN_WEBKIT: "1",
});
try {
  const { apiKey } = await server.signup();
  const catalog = await server.api("GET", "/api/email-clients", { key: apiKey });
  const formFactors = catalog.body.formFactors as Record<string, { clients: Record<string, ClientView> }>;
  const clients = Object.fromEntries(Object.entries(formFactors).map(([ff, f]) => [ff, Object.keys(f.clients)]));
  const done = await runEmailMessage(server, apiKey, readFileSync(join(ROOT, SHOWCASE)), [{ id: CHECK, clients }]);
  const result = done.results[0];
  const rendered = (result.renders ?? []) as Array<Record<string, unknown> & { clientId: string; formFactor: string }>;
  const wanted = Object.values(clients).flat().length;
  if (rendered.length !== wanted)
    throw new Error(
      `${wanted} renders asked for, ${rendered.length} reported: ${result.verdict} ${result.reason ?? ""}`,
    );
  for (const f of readdirSync(OUT)) if (f.endsWith(".jpg")) rmSync(join(OUT, f));
  const renders: ClientRender[] = [];
  for (const { screenshotUrl, ...render } of rendered) {
    const client = formFactors[render.formFactor]!.clients[render.clientId]!;
    const shot = await fetch(screenshotUrl as string, { headers: { authorization: `Bearer ${apiKey}` } });
    if (!shot.ok) throw new Error(`${render.clientId}: screenshot HTTP ${shot.status}`);
    const pixels = decodedScreenshot({
      contentType: shot.headers.get("content-type") ?? "image/jpeg",
      data: new Uint8Array(await shot.arrayBuffer()),
    });
    const small = downscaled(pixels, IMAGE_WIDTH, IMAGE_MAX_HEIGHT);
    const file = `${render.clientId}-${render.formFactor}.jpg`;
    writeFileSync(join(OUT, file), encodeJpeg(small, JPEG_QUALITY).data);
    renders.push({
      ...(render as Omit<ClientRender, "name" | "engine" | "colorScheme" | "image">),
      name: client.name,
      // The render's own engine when the job reports one, else the client's, as /api/email-clients gives it.
      engine: typeof render.engine === "string" ? render.engine : client.engine,
      colorScheme: client.colorScheme,
      ...(client.lightVariant ? { lightVariant: client.lightVariant } : {}),
      image: { file, width: small.width, height: small.height, renderWidth: pixels.width, cut: small.cut },
    });
    console.log(`${file}: ${(render.changes as unknown[]).length} changes`);
  }
  writeFileSync(
    join(OUT, "index.json"),
    `${JSON.stringify({ recordedOn: new Date().toISOString().slice(0, 10), message: SHOWCASE, check: CHECK, renders }, null, 2)}\n`,
  );
  const imports = renders.map((r, i) => `import i${i} from "./${r.image.file}" with { type: "file" };`);
  writeFileSync(
    join(OUT, "images.ts"),
    [
      "// Written by scripts/email-client-examples.ts: each render's screenshot, embedded in the binary when compiled.",
      ...imports,
      "",
      "/** Screenshot file name → its path (on disk, or in the compiled binary). */",
      "export const IMAGE_PATHS: Record<string, string> = {",
      ...renders.map((r, i) => `  "${r.image.file}": i${i},`),
      "};",
      "",
    ].join("\n"),
  );
  console.log(`wrote ${renders.length} renders to ${OUT}`);
} finally {
  await server.stop();
}
