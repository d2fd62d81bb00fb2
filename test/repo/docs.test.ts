import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { generatedDocs } from "../../src/docs/generate";
import { anchorOf } from "../../src/docs/markdown";
import { errorCatalog } from "../../src/errors/catalog";
import { ROOT, startServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

for (const [path, render] of Object.entries(generatedDocs)) {
  test(`${path} matches its source (run \`npm run docs\` after changing it)`, () => {
    expect(readFileSync(join(ROOT, path), "utf8")).toBe(render());
  });
}

test("GET /api/errors lists every catalogued code with its status and guidance", async () => {
  const res = await server.api("GET", "/api/errors");
  expect(res.status).toBe(200);
  expect(res.body.errors.map((e: any) => [e.code, e.httpStatus])).toEqual(errorCatalog.map((e) => [e.code, e.status]));
  for (const e of res.body.errors) expect(e.guidance.length).toBeGreaterThan(10);
});

// The spec's error section, carried in the repository (a clean clone has no spec beside it).
const SPEC_ERRORS = join(ROOT, "test", "fixtures", "spec", "interface-errors.md");
const SPEC = join(ROOT, "..", "shared", "spec", "interface.md");
/** From "## 7. Errors" up to "## 8. Limits", or to the end (the copy stops there). */
function errorSection(markdown: string): string {
  const end = markdown.indexOf("## 8. Limits");
  return markdown.slice(markdown.indexOf("## 7. Errors"), end < 0 ? undefined : end);
}

test("the catalog holds every error code of the interface specification", () => {
  const section = errorSection(readFileSync(SPEC_ERRORS, "utf8"));
  const specCodes = [...section.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  expect(specCodes.length).toBeGreaterThan(50);
  const ours = new Map(errorCatalog.map((e) => [e.code, e.status]));
  for (const [code, status] of specCodes) expect([code, ours.get(code as string)]).toEqual([code, status]);
});

test.skipIf(!existsSync(SPEC))("the repository's copy of the spec's error section is the spec's, word for word", () => {
  expect(errorSection(readFileSync(SPEC_ERRORS, "utf8"))).toBe(errorSection(readFileSync(SPEC, "utf8")));
});

test("an unknown route is a catalogued JSON 404", async () => {
  const res = await server.api("GET", "/api/nope");
  expect(res.status).toBe(404);
  expect(res.body.code).toBe("ROUTE_NOT_FOUND");
  for (const field of ["title", "message", "developerMessage", "requestId"])
    expect(typeof res.body[field]).toBe("string");
  expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
});

// ------------------------------------------------------------------ the README and docs/ link each other, and every link lands

const DOC_PAGES = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** Markdown outside fenced code blocks (a `# comment` in a shell block is not a heading, a link in it not a link). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "");

/** The anchors GitHub gives a page's headings: the slug, and -1, -2… for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = anchorOf(heading!);
    const n = seen.get(slug) ?? 0;
    anchors.add(n ? `${slug}-${n}` : slug);
    seen.set(slug, n + 1);
  }
  return anchors;
}

test("the README links every page of docs/, and docs/architecture.md lists every other one", () => {
  const readme = read("README.md");
  const architecture = read("docs/architecture.md");
  expect(DOC_PAGES.filter((page) => !readme.includes(`](docs/${page})`))).toEqual([]);
  expect(DOC_PAGES.filter((page) => page !== "architecture.md" && !architecture.includes(`](${page})`))).toEqual([]);
});

test("every relative link in the README and docs/ names a file that exists, and a heading of it", () => {
  const broken: string[] = [];
  for (const path of ["README.md", ...DOC_PAGES.map((page) => `docs/${page}`)]) {
    for (const [, target] of prose(read(path)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file, anchor] = target!.split("#");
      const linked = file ? normalize(join(dirname(path), file)) : path;
      if (!existsSync(join(ROOT, linked))) broken.push(`${path}: ${target} (no file)`);
      else if (anchor && linked.endsWith(".md") && !anchorsOf(read(linked)).has(anchor))
        broken.push(`${path}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test("the README stays first contact: under 12 KB, the reference in docs/", () => {
  expect(Buffer.byteLength(read("README.md"))).toBeLessThan(12 * 1024);
});
