import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** Helpers for the processes an engine driven over WebDriver starts (a display, a driver, a browser). */

/** How long a process an engine starts may take to be ready. */
export const START_TIMEOUT_MS = 20_000;

/** The first line a child writes on its standard output (Xvfb's -displayfd writes its display number there). */
export function firstLine(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once("error", (e) => reject(new Error(`${name} could not start: ${e.message}`)));
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
    child.stdout?.on("data", (d) => {
      out += d;
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
  });
}

/** A TCP port free on loopback now (for a driver to listen on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
