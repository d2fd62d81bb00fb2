import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { validationModules } from "../src/catalog/registry";
import type { CheckExamples } from "../src/catalog/examples";
import recorded from "../src/catalog/examples.json";
import { startServer } from "../test/support/harness";
import {
  exampleOf,
  FIXTURE_DIRS,
  runEmailFixture,
  serveWebFixtureAssets,
  webFixtureJob,
  type FixtureFamily,
} from "../test/support/fixture-runs";

/**
 * `npm run examples`: runs every check's pass and fail fixture as a real job (the same jobs the fixture tests run,
 * test/support/fixture-runs.ts) and writes what Assay reported to src/catalog/examples.json, the catalog site's
 * examples. Run it after changing a check or a fixture; the fixture tests fail until the file matches.
 * `bun scripts/examples.ts <check id>…` records only those checks, keeping the others' examples as they are.
 */

const OUT = join(import.meta.dir, "..", "src", "catalog", "examples.json");

const familyOf = (id: string): FixtureFamily | undefined =>
  (["web", "email", "email-visual"] as const).find((f) =>
    ["pass", "fail"].every((v) => existsSync(join(FIXTURE_DIRS[f], id, `${v}.${f === "web" ? "html" : "eml"}`))),
  );

const assets = serveWebFixtureAssets();
const server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1", ASSAY_BROWSER_POOL_SIZE: "2" });
try {
  const { apiKey } = await server.signup();
  const only = new Set(process.argv.slice(2));
  const examples: Record<string, CheckExamples> = only.size
    ? { ...(recorded.examples as Record<string, CheckExamples>) }
    : {};
  const run = async (id: string, family: FixtureFamily) => {
    const [pass, fail] = await Promise.all(
      (["pass", "fail"] as const).map(async (verdict) => {
        if (family === "web") {
          const res = await server.api("POST", "/api/jobs", {
            key: apiKey,
            body: webFixtureJob(id, verdict, assets.base(id)),
          });
          if (res.status !== 200) throw new Error(`${id} ${verdict}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
          return exampleOf(res.body.results[0], assets.base(id));
        }
        return exampleOf((await runEmailFixture(server, apiKey, family, id, verdict)).results[0]);
      }),
    );
    examples[id] = { family, pass: pass!, fail: fail! };
    console.log(`${id}: pass -> ${pass!.verdict}, fail -> ${fail!.verdict}`);
  };
  const queue = validationModules.flatMap((m) => {
    if (only.size && !only.has(m.meta.id)) return [];
    const family = familyOf(m.meta.id);
    return family ? [[m.meta.id, family] as const] : [];
  });
  // Two at a time: the browser pool's size.
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await run(...next);
    }),
  );
  const ordered = Object.fromEntries(
    validationModules.flatMap((m) => (examples[m.meta.id] ? [[m.meta.id, examples[m.meta.id]]] : [])),
  );
  writeFileSync(
    OUT,
    `${JSON.stringify({ recordedOn: new Date().toISOString().slice(0, 10), examples: ordered }, null, 2)}\n`,
  );
  console.log(`wrote ${Object.keys(ordered).length} checks' examples to ${OUT}`);
} finally {
  await server.stop();
  assets.server.stop(true);
}
