import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDataDir } from "../support/harness";

const dataDir = tempDataDir();
let proc: ReturnType<typeof Bun.spawn> | undefined;
afterAll(() => {
  proc?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

test("npm run build compiles dist/assay, which serves on its own: /healthz, the sign-in page, the API", async () => {
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
    status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 200) await Bun.sleep(100);
  }
  expect(status).toBe(200);
  // The templates (JSX) and the sign-in libraries are in the binary too.
  const signIn = await fetch(`http://127.0.0.1:${port}/signin`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toContain('action="/signin"');
  const sent = await fetch(`http://127.0.0.1:${port}/api/session/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "binary@example.com" }),
  });
  expect(sent.status).toBe(202);
});
