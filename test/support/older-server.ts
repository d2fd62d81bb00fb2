import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./harness";

/**
 * The server as it was at an earlier commit of this repository, for the client's dealings with a server that
 * predates a feature: the server's source tree at `commit` (git archive), beside this checkout's node_modules, in a
 * temporary directory; `spawnServer(dataDir, env, tree.root)` runs it. Needs the repository's history: a test skips,
 * saying why, in a shallow clone without the commit (`hasCommit`).
 */
/** Whether this checkout holds `commit` (a shallow clone may not). */
export function hasCommit(commit: string): boolean {
  return Bun.spawnSync(["git", "cat-file", "-e", `${commit}^{commit}`], { cwd: ROOT, stderr: "ignore" }).exitCode === 0;
}

export function olderServerTree(commit: string): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), "assay-older-server-"));
  const archive = Bun.spawnSync(
    [
      "git",
      "archive",
      "--format=tar",
      commit,
      "src",
      "events",
      "projections",
      "data",
      "package.json",
      "bunfig.toml",
      "tsconfig.json",
    ],
    { cwd: ROOT, stderr: "pipe" },
  );
  if (archive.exitCode !== 0)
    throw new Error(`git archive ${commit} failed (is the repository's history here?): ${archive.stderr.toString()}`);
  const tar = Bun.spawnSync(["tar", "-x", "-C", root], { stdin: archive.stdout, stderr: "pipe" });
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
