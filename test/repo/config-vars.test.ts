import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { CONFIG_VARS } from "../../src/config-vars";
import { loadConfig } from "../../src/config";
import { ROOT } from "../support/harness";

/** Every environment variable read or named in the repository is declared once in src/config-vars.ts, and every declared one is read. */

const declared = new Set(Object.keys(CONFIG_VARS));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(ROOT, dir, name);
    if (statSync(path).isDirectory())
      return name === "fixtures" || name === "node_modules" ? [] : sourceFiles(relative(ROOT, path));
    return /\.(ts|tsx|mjs)$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

const CODE = ["src", "packages/cli/src", "scripts", "bench", "test"]
  .flatMap(sourceFiles)
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), "utf8") }));
/** Bun's own, forwarded by the test harness to the processes it starts; not Assay's to declare. */
const NOT_OURS = new Set(["BUN_RUNTIME_TRANSPILER_CACHE_PATH"]);

test("every variable src/, packages/cli/src, scripts/, bench/ and test/ read from process.env is declared", () => {
  const undeclared = CODE.flatMap(({ path, text }) =>
    [...text.matchAll(/process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[["']([^"']+)["']\])/g)]
      .map((m) => m[1] ?? m[2]!)
      .filter((name) => !declared.has(name) && !NOT_OURS.has(name))
      .map((name) => `${path}: ${name}`),
  );
  expect(undeclared).toEqual([]);
});

test("src/config.ts reads the environment only through the declaration (configReader)", () => {
  const config = readFileSync(join(ROOT, "src", "config.ts"), "utf8");
  expect(config.match(/\benv\.[A-Z]/g)).toBeNull();
  expect(config.match(/\benv\[/g)).toHaveLength(1);
});

test("every ASSAY_ name in the code, the README and docs/ is a declared variable (or a constant of that name)", () => {
  const docs = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)].map((path) => ({
    path,
    text: readFileSync(join(ROOT, path), "utf8"),
  }));
  const constants = new Set(
    CODE.flatMap(({ text }) => [...text.matchAll(/\bconst (ASSAY_[A-Z0-9_]+)\b/g)].map((m) => m[1]!)),
  );
  const unknown = [...CODE, ...docs].flatMap(({ path, text }) =>
    // A name ending in `_` is a family (ASSAY_S3_*), not a variable.
    [...text.matchAll(/\bASSAY_[A-Z0-9_]*[A-Z0-9]\b/g)]
      .map((m) => m[0])
      .filter((name) => !declared.has(name) && !constants.has(name))
      .map((name) => `${path}: ${name}`),
  );
  expect([...new Set(unknown)]).toEqual([]);
});

test("every declared variable is read: by src/config.ts through the declaration, or from process.env", () => {
  const config = readFileSync(join(ROOT, "src", "config.ts"), "utf8");
  // configReader's methods take only declared names, so a name quoted in config.ts is one it reads.
  const readByConfig = new Set([...config.matchAll(/"([A-Z][A-Z0-9_]+)"/g)].map((m) => m[1]!));
  const readElsewhere = new Set(
    CODE.flatMap(({ text }) => [...text.matchAll(/process\.env\.([A-Z0-9_]+)/g)].map((m) => m[1]!)),
  );
  expect([...declared].filter((name) => !readByConfig.has(name) && !readElsewhere.has(name))).toEqual([]);
});

test("every declaration says what it does, and a default the server reads is the one it declares", () => {
  for (const [name, spec] of Object.entries(CONFIG_VARS))
    expect([name, /^\S.*\.$/.test(spec.doc)]).toEqual([name, true]);
  const config = loadConfig({});
  expect([
    config.port,
    config.smtpPort,
    config.signupCredits,
    config.emailWindowSeconds,
    config.inboxDomain,
    config.billingProvider,
  ]).toEqual([
    CONFIG_VARS.PORT.default,
    CONFIG_VARS.SMTP_PORT.default,
    CONFIG_VARS.ASSAY_SIGNUP_CREDITS.default,
    CONFIG_VARS.ASSAY_EMAIL_WINDOW_SECONDS.default,
    CONFIG_VARS.ASSAY_INBOX_DOMAIN.default,
    CONFIG_VARS.ASSAY_BILLING_PROVIDER.default,
  ]);
});

test("a malformed whole number stops the start naming the variable; one past its bound is read as the bound", () => {
  expect(() => loadConfig({ ASSAY_SIGNUP_CREDITS: "many" })).toThrow(
    'ASSAY_SIGNUP_CREDITS: expected a whole number, got "many"',
  );
  expect(() => loadConfig({ PORT: "-1" })).toThrow("PORT: expected a whole number");
  expect(
    loadConfig({ ASSAY_PLAN_STALE_SECONDS: "9000", ASSAY_SIGNINS_PER_CLIENT: "0", ASSAY_DNS_TIMEOUT_MS: "5" }),
  ).toMatchObject({
    planStaleSeconds: 300,
    signinsPerClient: 1,
    dnsTimeoutMs: 100,
  });
});
