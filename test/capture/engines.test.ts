import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { WebKitEngine } from "../../src/capture/engines/webkit";
import { NetworkGuard } from "../../src/capture/network-guard";
import { decodedScreenshot } from "../../src/capture/screenshot-codec";

/**
 * WebKitGTK driven through WebKitWebDriver under Xvfb (Debian's webkit2gtk-driver and xvfb), every request through
 * the guarded proxy. A listener on loopback counts what reaches it: with loopback refused, nothing may.
 */

let engine: WebKitEngine;
let target: ReturnType<typeof Bun.serve>;
/** Raw TCP on loopback: counts every connection, so a TLS handshake or a WebSocket that went around the proxy shows. */
let tcp: Server;
let tcpPort: number;
let tcpConnections = 0;
const hits: string[] = [];
const GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=", "base64");

beforeAll(async () => {
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      hits.push(`${req.method} ${new URL(req.url).pathname}${body ? ` ${body}` : ""}`);
      if (new URL(req.url).pathname === "/redirect")
        return Response.redirect("http://10.0.0.1/after-redirect.gif", 302);
      return new Response(GIF, { headers: { "content-type": "image/gif" } });
    },
  });
  tcp = createServer((socket) => {
    tcpConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  tcpPort = (tcp.address() as { port: number }).port;
  engine = await WebKitEngine.start();
});

afterAll(async () => {
  await engine?.close();
  target?.stop(true);
  tcp?.close();
});

describe("WebKit through WebKitWebDriver", () => {
  test("renders a document at the viewport asked for, its subresources fetched through the guard, redirects re-checked", async () => {
    hits.length = 0;
    const html = `<!doctype html><body style="margin:0;background:rgb(0,102,204)">
      <img src="http://127.0.0.1:${target.port}/allowed.gif" width=10 height=10 style="position:absolute;left:600px">
      <img src="http://127.0.0.1:${target.port}/redirect" width=10 height=10 style="position:absolute;left:620px">
      <script>
        const xhr = new XMLHttpRequest();
        xhr.open("POST", "http://127.0.0.1:${target.port}/form", false);
        xhr.send("name=value");
      </script></body>`;
    const render = await engine.render(html, { width: 640, height: 480 }, new NetworkGuard(true));
    const image = decodedScreenshot({ contentType: "image/png", data: render.png });
    expect([image.width, image.height]).toEqual([640, 480]);
    const at = (x: number, y: number) => [
      ...image.data.slice((y * image.width + x) * 4, (y * image.width + x) * 4 + 3),
    ];
    expect(at(320, 240)).toEqual([0, 102, 204]);
    expect(render.browserVersion).toMatch(/^2\.\d+/);
    expect(hits.sort()).toEqual(["GET /allowed.gif", "GET /redirect", "POST /form name=value"]);
    expect(render.requests).toContainEqual({
      method: "GET",
      url: `http://127.0.0.1:${target.port}/allowed.gif`,
      outcome: "allowed",
    });
    // A redirect goes back to the browser, whose next request the guard decides again.
    expect(render.requests).toContainEqual({
      method: "GET",
      url: "http://10.0.0.1/after-redirect.gif",
      outcome: "private",
    });
  });

  test("requests to private, link-local and loopback addresses are refused by the proxy and never reach them", async () => {
    hits.length = 0;
    tcpConnections = 0;
    const loop = `127.0.0.1:${target.port}`;
    const html = `<!doctype html><body>
      <img src="http://10.0.0.1/private.gif">
      <img src="http://169.254.169.254/latest/meta-data/">
      <img src="http://${loop}/loopback.gif">
      <img src="http://localhost:${target.port}/loopback-name.gif">
      <link rel="stylesheet" href="https://127.0.0.1:${tcpPort}/tls.css">
      <img src="https://10.0.0.2/private-tls.gif">
      <iframe src="http://[::1]:${target.port}/frame"></iframe>
      <script>new WebSocket("ws://127.0.0.1:${tcpPort}/ws"); new WebSocket("wss://127.0.0.1:${tcpPort}/wss")</script></body>`;
    const render = await engine.render(html, { width: 400, height: 300 }, new NetworkGuard(false));
    const outcomes = Object.fromEntries(render.requests.map((r) => [r.url, r.outcome]));
    expect(outcomes).toMatchObject({
      "http://10.0.0.1/private.gif": "private",
      "http://169.254.169.254/latest/meta-data/": "link-local",
      [`http://${loop}/loopback.gif`]: "loopback",
      [`http://localhost:${target.port}/loopback-name.gif`]: "loopback",
      [`127.0.0.1:${tcpPort}`]: "loopback",
      "10.0.0.2:443": "private",
      [`http://[::1]:${target.port}/frame`]: "loopback",
    });
    expect(render.requests.filter((r) => r.outcome === "allowed")).toEqual([]);
    expect(hits).toEqual([]);
    expect(tcpConnections).toBe(0);
  });
});
