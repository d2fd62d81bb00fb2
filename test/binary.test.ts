import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDataDir } from "./support/harness";

const dataDir = tempDataDir();
let proc: ReturnType<typeof Bun.spawn> | undefined;
afterAll(() => {
  proc?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

test("npm run build compiles dist/assay, which serves a healthy /healthz on its own", async () => {
  const build = Bun.spawnSync(["npm", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(build.exitCode).toBe(0);
  const port = 20000 + Math.floor(Math.random() * 20000);
  proc = Bun.spawn([join(ROOT, "dist", "assay"), "serve"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), ASSAY_BROWSER_POOL_SIZE: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let status = 0;
  for (let i = 0; i < 200 && status !== 200; i++) {
    status = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0);
    if (status !== 200) await Bun.sleep(100);
  }
  expect(status).toBe(200);
});
