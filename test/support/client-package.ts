import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./harness";

/**
 * The client package as a person gets it: packed by npm from packages/cli (its committed build, as the GitHub Action
 * packs it), installed by npm into an empty folder with no registry to reach (offline, an empty cache: the tarball
 * must need nothing downloaded), and run by the machine's Node with neither Bun nor this repository on its PATH.
 */
export interface InstalledClient {
  /** The tarball npm packed. */
  tarball: string;
  /** The folder it was installed into (its package.json and node_modules). */
  dir: string;
  /** The `assay` npm linked into node_modules/.bin. */
  bin: string;
  /** A PATH with Node and the installed `assay`, and no Bun. */
  path: string;
  /** Node's own executable. */
  node: string;
  remove(): void;
}

function run(command: string[], cwd: string, env: Record<string, string | undefined>) {
  const proc = Bun.spawnSync(command, { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0)
    throw new Error(
      `${command.join(" ")} exited ${proc.exitCode}:\n${proc.stdout.toString()}\n${proc.stderr.toString()}`,
    );
  return proc.stdout.toString();
}

export function installPackedClient(): InstalledClient {
  const node = Bun.which("node");
  if (!node) throw new Error("no node on PATH: the client package is tested under Node");
  const root = mkdtempSync(join(tmpdir(), "assay-client-package-"));
  const packed = join(root, "packed");
  const dir = join(root, "installed");
  mkdirSync(packed);
  mkdirSync(dir);
  // Neither Bun nor the repository's node_modules/.bin: the system's folders and Node's own.
  const path = [join(dir, "node_modules", ".bin"), dirname(node), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  const npmEnv = {
    PATH: `${dirname(node)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: root,
    npm_config_cache: join(root, "npm-cache"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  // --ignore-scripts: the committed build is packed as it is (prepack would build it again with Bun).
  run(
    ["npm", "pack", "--ignore-scripts", "--silent", "--pack-destination", packed],
    join(ROOT, "packages", "cli"),
    npmEnv,
  );
  const tarball = join(packed, readdirSync(packed).find((f) => f.endsWith(".tgz"))!);
  run(["npm", "install", tarball], dir, npmEnv);
  return {
    tarball,
    dir,
    bin: join(dir, "node_modules", ".bin", "assay"),
    path,
    node,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
