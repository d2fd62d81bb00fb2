import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../support/harness";

// The layering rules live in .dependency-cruiser.mjs (docs/architecture.md explains them); this runs them.
const LAYERS = ["src", "events", "projections", "packages/cli/src"];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<string | { name: string }>;
}

function cruise(): { modules: Array<{ source: string }>; summary: { violations: Violation[] } } {
  const bin = join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
  const run = Bun.spawnSync(["node", bin, "--config", ".dependency-cruiser.mjs", "--output-type", "json", ...LAYERS], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = run.stdout.toString();
  if (!out.trim().startsWith("{"))
    throw new Error(`dependency-cruiser did not run (exit ${run.exitCode}):\n${run.stderr.toString()}`);
  return JSON.parse(out);
}

/** One line per violation, grouped by rule: `rule: from -> to`, a circle as its whole path. */
function report(violations: Violation[]): string {
  const byRule = new Map<string, string[]>();
  for (const v of violations) {
    const path = v.cycle?.length
      ? [v.from, ...v.cycle.map((c) => (typeof c === "string" ? c : c.name))]
      : [v.from, v.to];
    byRule.set(v.rule.name, [...(byRule.get(v.rule.name) ?? []), path.join(" -> ")]);
  }
  return [...byRule]
    .map(([rule, lines]) => `${rule} (${lines.length}):\n${lines.map((l) => `  ${l}`).join("\n")}`)
    .join("\n");
}

test("the layering rules hold: no import circle, no import from a lower layer to a higher one", () => {
  const result = cruise();
  // A cruise that parsed nothing would find nothing: every source file must have been read.
  const cruised = new Set(result.modules.map((m) => m.source));
  const sources = LAYERS.flatMap((dir) => [...new Bun.Glob(`${dir}/**/*.ts`).scanSync({ cwd: ROOT })]).filter(
    (f) => !f.endsWith(".d.ts"),
  );
  expect(sources.filter((f) => !cruised.has(f))).toEqual([]);

  const violations = result.summary.violations;
  if (violations.length)
    throw new Error(
      `${violations.length} layering violations (rules in .dependency-cruiser.mjs):\n${report(violations)}`,
    );
});

test("the JSX page templates, which the cruise cannot parse, import only @kitajs/html and other templates", () => {
  const templates = LAYERS.flatMap((dir) => [...new Bun.Glob(`${dir}/**/*.tsx`).scanSync({ cwd: ROOT })]);
  expect(templates.length).toBeGreaterThan(0);
  const outside = templates.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)]
      .map((m) => m[1]!)
      .filter(
        (spec) =>
          spec !== "@kitajs/html" && !(spec.startsWith(".") && existsSync(join(ROOT, dirname(file), `${spec}.tsx`))),
      )
      .map((spec) => `${file} -> ${spec}`),
  );
  expect(outside).toEqual([]);
});
