import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "jpeg-js";
import { EMAIL_CLIENTS } from "../../src/catalog/email-clients";
import {
  clientPageIds,
  clientRenders,
  rendersOfClient,
  showcaseMessage,
} from "../../src/catalog/email-client-examples";
import { IMAGE_PATHS } from "../../src/catalog/email-clients/images";
import { ROOT, startServer, type TestServer } from "../support/harness";
import { runEmailMessage } from "../support/fixture-runs";
import { sitemapPaths } from "./support";

/**
 * The showcase renders the catalog's mail-client pages show (src/catalog/email-clients/, recorded by
 * `npm run email-client-examples`): every client the catalog offers is recorded with its screenshot, one client
 * re-rendered now reports the changes recorded, and the pages show the screenshots with their change lists.
 */

const IMAGES = join(ROOT, "src", "catalog", "email-clients");
const ALL_CLIENTS = Object.values(EMAIL_CLIENTS).flat();

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer({ ASSAY_SIGNUP_CREDITS: "1000" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

test("every client the catalog offers, light and dark, has its render recorded, each screenshot committed and embedded", () => {
  expect(clientRenders.map((r) => `${r.clientId}@${r.formFactor}`).sort()).toEqual(
    ALL_CLIENTS.map((c) => `${c.id}@${c.formFactor}`).sort(),
  );
  expect(existsSync(join(ROOT, showcaseMessage))).toBe(true);
  for (const r of clientRenders) {
    const client = ALL_CLIENTS.find((c) => c.id === r.clientId)!;
    expect({ id: r.clientId, name: r.name, colorScheme: r.colorScheme, dark: !!r.darkMode }).toEqual({
      id: client.id,
      name: client.name,
      colorScheme: client.colorScheme,
      dark: client.colorScheme === "dark",
    });
    const pixels = decode(readFileSync(join(IMAGES, r.image.file)));
    expect({ file: r.image.file, width: pixels.width, height: pixels.height }).toEqual({
      file: r.image.file,
      width: r.image.width,
      height: r.image.height,
    });
    expect(r.image.width).toBeLessThanOrEqual(480);
    expect(IMAGE_PATHS[r.image.file]).toBeDefined();
  }
  // No screenshot is left over from an earlier recording, and the whole set stays small enough to commit.
  const files = readdirSync(IMAGES).filter((f) => f.endsWith(".jpg"));
  expect(files.sort()).toEqual(clientRenders.map((r) => r.image.file).sort());
  const bytes = files.reduce((n, f) => n + readFileSync(join(IMAGES, f)).byteLength, 0);
  expect(bytes).toBeLessThan(4 * 1024 * 1024);
});

test("the showcase exercises the profiles' rules: Word drops flex, grid and link padding; Gmail prefixes and drops a block", () => {
  const targets = (id: string) => rendersOfClient(id)[0]!.changes.map((c) => `${c.action} ${c.target}`);
  const word = targets("outlook-windows");
  expect(word.some((t) => t.includes("display: flex"))).toBe(true);
  expect(word.some((t) => t.includes("display: grid"))).toBe(true);
  expect(word).toContain("conditional-comments <!--[if mso]> … <![endif]--> blocks");
  expect(rendersOfClient("outlook-windows")[0]!.changes).toContainEqual(
    expect.objectContaining({ source: "word-engine", target: "padding: 2px 4px", selector: "a" }),
  );
  const gmail = targets("gmail-web");
  // The body's style block, and the head block holding a nested at-rule.
  expect(gmail.filter((t) => t === "style-block-removed <style>").length).toBe(2);
  expect(gmail).toContain("media-query-removed @media (prefers-color-scheme: dark)");
  expect(gmail.some((t) => t.startsWith("names-prefixed"))).toBe(true);
  expect(gmail.some((t) => t.startsWith("images-blocked"))).toBe(true);
  expect(rendersOfClient("apple-mail-ios").map((r) => r.colorScheme)).toEqual(["light", "dark"]);
});

test("re-rendered now, a client reports the changes recorded (the recording is fresh)", async () => {
  const done = await runEmailMessage(server, apiKey, readFileSync(join(ROOT, showcaseMessage)), [
    { id: "email-cta-visible", clients: { "desktop-md": ["outlook-windows"] } },
  ]);
  const now = done.results[0].renders[0];
  const recorded = rendersOfClient("outlook-windows")[0]!;
  const key = (c: { action: string; target: string; selector?: string; source: string }) =>
    `${c.action} ${c.target} ${c.selector ?? ""} ${c.source}`;
  expect(now.changes.map(key).sort()).toEqual(recorded.changes.map(key).sort());
});

test("the client pages show each render's screenshot (sized, lazy past the first, with alt text) beside its changes", async () => {
  const index = await (await fetch(`${server.baseUrl}/email-clients`)).text();
  for (const id of clientPageIds()) expect(index).toContain(`href="${server.baseUrl}/email-clients/${id}"`);
  const res = await fetch(`${server.baseUrl}/email-clients/outlook-web`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
  const renders = rendersOfClient("outlook-web");
  expect(images.length).toBe(renders.length);
  renders.forEach((r, i) => {
    const img = images[i]!;
    expect(img).toContain(`src="/email-clients/images/${r.image.file}"`);
    expect(img).toContain(`width="${r.image.width}"`);
    expect(img).toContain(`height="${r.image.height}"`);
    expect(img).toMatch(/alt="The showcase message as Outlook on the web/);
    expect(img.includes('loading="lazy"')).toBe(i > 0);
  });
  expect(html).toContain('<a href="https://www.caniemail.com/">');
  for (const c of renders[0]!.changes.slice(0, 3)) expect(html).toContain(Bun.escapeHTML(c.target));
  const image = await fetch(`${server.baseUrl}/email-clients/images/${renders[0]!.image.file}`);
  expect(image.headers.get("content-type")).toBe("image/jpeg");
  expect(new Uint8Array(await image.arrayBuffer())).toEqual(
    new Uint8Array(readFileSync(join(IMAGES, renders[0]!.image.file))),
  );
});

test("an unknown client, a dark variant's own id and an unknown image are HTML 404 pages", async () => {
  for (const path of [
    "/email-clients/no-such-client",
    "/email-clients/outlook-web-dark",
    "/email-clients/images/no-such.jpg",
    "/email-clients/images/..%2Findex.json",
  ]) {
    const res = await fetch(`${server.baseUrl}${path}`);
    expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
      path,
      status: 404,
      type: "text/html; charset=utf-8",
    });
  }
});

test("the sitemap lists the client pages, and docs/email-clients.md links to them", async () => {
  const paths = await sitemapPaths(server);
  expect(paths).toContain("/email-clients");
  for (const id of clientPageIds()) expect(paths).toContain(`/email-clients/${id}`);
  const docs = readFileSync(join(ROOT, "docs", "email-clients.md"), "utf8");
  for (const id of clientPageIds()) expect(docs).toContain(`/email-clients/${id}`);
});
