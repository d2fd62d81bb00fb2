import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EnginePool } from "../../src/capture/engines/engine-pool";
import { WebKitEngine } from "../../src/capture/engines/webkit";
import { NetworkGuard } from "../../src/capture/network-guard";
import { decodedScreenshot } from "../../src/capture/screenshot-codec";

/**
 * WebKit engines kept warm (engine-pool.ts) and what a render leaves for the next: sealed renders (JavaScript off,
 * nothing fetched) share a warm session, every other render gets a fresh one; an engine whose processes die is
 * replaced and the render on it run again, never hung.
 */

let site: ReturnType<typeof Bun.serve>;
/** Called when the slow page is asked for; the test decides what happens meanwhile. */
let onSlowPage: () => Promise<void> = async () => {};
/** The Cookie header of each request for /reader. */
const readerCookies: Array<string | null> = [];
const READ_STATE = "return [document.cookie, localStorage.getItem('tenant'), sessionStorage.getItem('tenant')]";

beforeAll(() => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/slow") await onSlowPage();
      if (path === "/reader") readerCookies.push(req.headers.get("cookie"));
      const headers: Record<string, string> = { "content-type": "text/html" };
      if (path === "/writer") headers["set-cookie"] = "server=tenant-a; Path=/; HttpOnly";
      const script =
        path === "/writer"
          ? "<script>document.cookie='script=tenant-a; path=/'; localStorage.setItem('tenant','a'); sessionStorage.setItem('tenant','a')</script>"
          : "";
      return new Response(`<!doctype html><body><p>${path}</p>${script}</body>`, { headers });
    },
  });
});
afterAll(() => site?.stop(true));

const viewport = { width: 400, height: 300 };
const guard = new NetworkGuard(true);
const sealed = (engine: WebKitEngine, html: string, script: string) =>
  engine.renderSealed(html, viewport, script, { canvas: "#ffffff" });

describe("a WebKit engine's sessions", () => {
  let engine: WebKitEngine;
  beforeAll(async () => {
    engine = await WebKitEngine.start();
  });
  afterAll(() => engine?.close());

  test("one tenant's cookies and storage are invisible to the next render of the same origin", async () => {
    const origin = `http://127.0.0.1:${site.port}`;
    const written = await engine.capture({ url: `${origin}/writer` }, [viewport], guard, READ_STATE);
    expect(written.shots[0]!.reading).toEqual(["script=tenant-a", "a", "a"]);
    // A sealed render between them, then the same origin again as another tenant: nothing of the first is there.
    await sealed(engine, "<p>mail</p>", "return 1");
    const next = await engine.capture({ url: `${origin}/reader` }, [viewport], guard, READ_STATE);
    expect(next.shots[0]!.reading).toEqual(["", null, null]);
    // The server was not sent the first tenant's cookies either (its HttpOnly one included).
    expect(readerCookies).toEqual([null]);
  });

  test("sealed renders reuse the warm session: no script runs, each document has a name of its own, the previous one is gone", async () => {
    const first = await sealed(
      engine,
      "<!doctype html><body><script>document.cookie='a=1'; localStorage.setItem('tenant','a')</script><p>one</p></body>",
      "return [location.href, document.cookie, document.body.textContent]",
    );
    expect(engine.warmFor([])).toBe(true);
    const [firstUrl, firstCookie] = first.shots[0]!.reading as string[];
    expect(firstCookie).toBe("");
    const second = await sealed(
      engine,
      "<!doctype html><body><p>two</p></body>",
      `return [location.href, document.cookie, localStorage.getItem('tenant'), document.body.textContent,
        (() => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(firstUrl)}, false);
          try { x.send(); return x.status } catch (e) { return 'refused' } })()]`,
    );
    const [secondUrl, cookie, stored, text, previous] = second.shots[0]!.reading as unknown[];
    expect(secondUrl).not.toBe(firstUrl);
    expect([cookie, stored, text]).toEqual(["", null, "two"]);
    // The first tenant's document is no longer served: the request is refused like any other of a mail render.
    expect(previous).not.toBe(200);
    expect(second.requests.find((r) => r.url === firstUrl)).toMatchObject({ outcome: "mail-render" });
    // Other arguments (dark mode) need another session; the warm one is replaced.
    await engine.renderSealed("<p>dark</p>", viewport, "return 1", { browserArgs: ["--dark-mode"] });
    expect(engine.warmFor(["--dark-mode"])).toBe(true);
    expect(engine.warmFor([])).toBe(false);
  });

  test("the canvas shows behind a document that paints no background, and not behind one that does", async () => {
    const pixel = async (html: string) => {
      const shot = await engine.renderSealed(html, viewport, "return 1", { canvas: "#003399" });
      const image = decodedScreenshot({ contentType: "image/png", data: shot.shots[0]!.png });
      const i = (200 * image.width + 200) * 4;
      return [...image.data.slice(i, i + 3)];
    };
    expect(await pixel("<p>plain</p>")).toEqual([0, 51, 153]);
    expect(await pixel('<body style="background: rgb(200, 0, 0)"><p>red</p></body>')).toEqual([200, 0, 0]);
    expect(await pixel("<p>plain again</p>")).toEqual([0, 51, 153]);
  });

  test("a warm session whose browser died is replaced: the render runs on a fresh one", async () => {
    await sealed(engine, "<p>warm</p>", "return 1");
    const browsers = Bun.spawnSync(["pgrep", "-P", String(engine.pids.driver)])
      .stdout.toString()
      .trim()
      .split("\n");
    expect(browsers.filter(Boolean).length).toBeGreaterThan(0);
    for (const pid of browsers) process.kill(Number(pid), "SIGKILL");
    const after = await sealed(engine, "<p>after</p>", "return document.body.textContent");
    expect(after.shots[0]!.reading).toBe("after");
    expect(engine.alive).toBe(true);
  });
});

describe("the engine pool", () => {
  test("an engine killed during a render is replaced and the render runs once more on the new one", async () => {
    const pool = new EnginePool(() => WebKitEngine.start(), 1);
    const used: WebKitEngine[] = [];
    try {
      let killed = false;
      onSlowPage = async () => {
        if (killed) return;
        killed = true;
        process.kill(used[0]!.pids.driver, "SIGKILL");
        await Bun.sleep(200);
      };
      const page = await pool.use((engine) => {
        used.push(engine);
        return engine.capture(
          { url: `http://127.0.0.1:${site.port}/slow` },
          [viewport],
          guard,
          "return location.pathname",
        );
      });
      expect(page.shots[0]!.reading).toBe("/slow");
      expect(used.length).toBe(2);
      expect(used[0]!.alive).toBe(false);
      expect(used[1]).not.toBe(used[0]);
      expect(used[1]!.alive).toBe(true);
    } finally {
      onSlowPage = async () => {};
      await pool.close();
    }
  });

  test("an engine that dies again on the retry makes the render an error, and the pool serves the next one", async () => {
    const pool = new EnginePool(() => WebKitEngine.start(), 1);
    try {
      const failed = await pool
        .use(async (engine) => {
          process.kill(engine.pids.xvfb, "SIGKILL");
          process.kill(engine.pids.driver, "SIGKILL");
          await Bun.sleep(100);
          return engine.capture({ html: "<p>never</p>" }, [viewport], guard);
        })
        .then(
          () => "rendered",
          (e: Error) => e.message,
        );
      expect(failed).toMatch(/WebKitWebDriver/);
      const next = await pool.use((engine) => engine.capture({ html: "<p>next</p>" }, [viewport], guard, "return 2"));
      expect(next.shots[0]!.reading).toBe(2);
    } finally {
      await pool.close();
    }
  });

  test("renders beyond the pool's size wait their turn, however many engines it keeps; a closed pool refuses them", async () => {
    const pool = new EnginePool(() => WebKitEngine.start(), 2, 3);
    const running: number[] = [];
    let most = 0;
    const render = (i: number) =>
      pool.use(async (engine) => {
        running.push(i);
        most = Math.max(most, running.length);
        try {
          return (await sealed(engine, `<p>${i}</p>`, "return document.body.textContent")).shots[0]!.reading;
        } finally {
          running.splice(running.indexOf(i), 1);
        }
      });
    try {
      expect(await Promise.all([1, 2, 3, 4, 5].map(render))).toEqual(["1", "2", "3", "4", "5"]);
      expect(most).toBe(2);
    } finally {
      await pool.close();
    }
    expect(await render(6).catch((e: Error) => e.message)).toBe("the engine pool is closed");
  });
});
