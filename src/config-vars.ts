/**
 * Every environment variable Assay reads, declared once: its section, format, default and what it does. Each
 * section's variables are declared in src/config-vars/<section>.ts, and assembled here in the sections' order.
 * src/config.ts reads the server's through this table (a name not declared here does not compile), and
 * `npm run docs` writes docs/configuration.md from it; test/repo/config-vars.test.ts checks that every variable
 * read anywhere in the repository is declared here, and every one declared is read.
 *
 * `doc` is Markdown as docs/configuration.md shows it (links are relative to docs/). `default` is the value the
 * reader falls back to; `defaultText` says in words a default that is computed or is no value at all.
 */
import type { VarSpec } from "./config-vars/declaration";
import { SERVER_VARS } from "./config-vars/server";
import { CLUSTER_VARS } from "./config-vars/cluster";
import { BROWSERS_VARS } from "./config-vars/browsers";
import { EMAIL_VARS } from "./config-vars/email";
import { RUNS_VARS } from "./config-vars/runs";
import { SIGNIN_VARS } from "./config-vars/signin";
import { LIMITS_VARS } from "./config-vars/limits";
import { BILLING_VARS } from "./config-vars/billing";
import { JUDGES_VARS } from "./config-vars/judges";
import { PLAYGROUND_VARS } from "./config-vars/playground";
import { SITES_VARS } from "./config-vars/sites";
import { WEBHOOKS_VARS } from "./config-vars/webhooks";
import { CATALOG_VARS } from "./config-vars/catalog";
import { TESTS_VARS } from "./config-vars/tests";
import { CLI_VARS } from "./config-vars/cli";
import { DEVELOPMENT_VARS } from "./config-vars/development";

export { CONFIG_SECTIONS, type ConfigSection, type VarKind, type VarSpec } from "./config-vars/declaration";

/** Section by section (src/config-vars/<section>.ts), in the order of CONFIG_SECTIONS. */
export const CONFIG_VARS = {
  ...SERVER_VARS,
  ...CLUSTER_VARS,
  ...BROWSERS_VARS,
  ...EMAIL_VARS,
  ...RUNS_VARS,
  ...SIGNIN_VARS,
  ...LIMITS_VARS,
  ...BILLING_VARS,
  ...JUDGES_VARS,
  ...PLAYGROUND_VARS,
  ...SITES_VARS,
  ...WEBHOOKS_VARS,
  ...CATALOG_VARS,
  ...TESTS_VARS,
  ...CLI_VARS,
  ...DEVELOPMENT_VARS,
} as const satisfies Record<string, VarSpec>;

export type ConfigVar = keyof typeof CONFIG_VARS;
