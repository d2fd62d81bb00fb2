import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "../../src/capture/chromium-launch";
import { startServer, type TestServer } from "../support/harness";
import { runLighthouse } from "../support/lighthouse";
import { dailySample } from "../support/self-check";

/**
 * Lighthouse (mobile, its accessibility and SEO categories) on catalog pages, each 100: the index, a standard page, a
 * custom page and a mail-client page under `npm run self-check`; one of the four, drawn by the day, under `npm test`
 * (each costs about 13 s of the suite's budget).
 */

setDefaultTimeout(300_000);
const SAMPLE = dailySample(
  ["/validations", "/validations/spelling/standard", "/validations/spelling/custom", "/email-clients/outlook-windows"],
  1,
);
let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), "assay-lighthouse-"));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test.each(SAMPLE)("%s scores 100 in accessibility and SEO", async (path) => {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
  const out = mkdtempSync(join(dir, "run-"));
  const run = await runLighthouse(`${server.baseUrl}${path}`, executablePath, out, {
    categories: ["accessibility", "seo"],
  });
  if (!run.ok) throw new Error(run.error);
  const { categories, audits } = run.report;
  // Below 100, the audits that lost points say why.
  const losing = Object.values(categories).flatMap((c) =>
    c.auditRefs.filter((a) => a.weight > 0 && audits[a.id]!.score !== 1).map((a) => `${c.id}: ${audits[a.id]!.title}`),
  );
  expect({ path, accessibility: categories.accessibility!.score, seo: categories.seo!.score, losing }).toEqual({
    path,
    accessibility: 1,
    seo: 1,
    losing: [],
  });
});
