import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { NetworkGuard, type Resolver } from "../../src/capture/network-guard";
import { classifyAddress } from "../../src/capture/ip-ranges";
import {
  GuardedFetchError,
  guardedFetch,
  type GuardedRefusal,
  type GuardedResponse,
} from "../../src/capture/guarded-fetch";
import { guardedWebSocket } from "../../src/capture/guarded-websocket";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eventCount, expectError, runClient, startServer, tempDataDir, type TestServer } from "../support/harness";

/**
 * Bypass attempts: every one is refused by the guard and, as a url job, by the HTTP API with
 * PLAYGROUND_INVALID_URL and details.reason. None needs DNS: the URL parser turns every numeric form into
 * an address literal, and loopback and single-label names are refused by name.
 */
const BYPASSES: Array<[url: string, reason: string]> = [
  ["http://127.1/", "loopback"],
  ["http://2130706433/", "loopback"],
  ["http://0x7f000001/", "loopback"],
  ["http://0177.0.0.1/", "loopback"],
  ["http://0x7f.1/", "loopback"],
  ["http://127.000.000.001/", "loopback"],
  ["http://127.0.0.1./", "loopback"],
  ["http://[::1]/", "loopback"],
  ["http://[::ffff:127.0.0.1]/", "loopback"],
  ["http://[::ffff:7f00:1]/", "loopback"],
  ["http://[::127.0.0.1]/", "loopback"],
  ["http://[64:ff9b::7f00:1]/", "loopback"],
  ["http://[2002:7f00:1::]/", "loopback"],
  ["http://localhost./", "loopback"],
  ["http://LOCALHOST:8080/", "loopback"],
  ["http://foo.localhost/", "loopback"],
  ["http://user@127.0.0.1/", "loopback"],
  ["http://user:secret@127.0.0.1:8080/admin", "loopback"],
  ["http://169.254.169.254/latest/meta-data/", "link-local"],
  ["http://[::ffff:169.254.169.254]/", "link-local"],
  ["http://[64:ff9b::a9fe:a9fe]/", "link-local"],
  ["http://[fe80::1]/", "link-local"],
  ["http://0.0.0.0/", "unspecified"],
  ["http://0/", "unspecified"],
  ["http://[::]/", "unspecified"],
  ["http://100.64.0.1/", "cgnat"],
  ["http://[fc00::1]/", "unique-local"],
  ["http://[fd12:3456:789a::1]/", "unique-local"],
  ["http://10.0.0.1/", "private"],
  ["http://172.16.0.1/", "private"],
  ["http://172.31.255.254/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://[::ffff:10.0.0.1]/", "private"],
  ["http://[fec0::1]/", "private"],
  ["http://224.0.0.1/", "multicast"],
  ["http://[ff02::1]/", "multicast"],
  ["http://255.255.255.255/", "reserved"],
  ["http://192.0.2.1/", "reserved"],
  ["http://198.18.0.1/", "reserved"],
  ["http://[2001::1]/", "reserved"],
  ["http://[::8.8.8.8]/", "reserved"],
  ["http://intranet/", "internal-name"],
  ["http://metadata/computeMetadata/v1/", "internal-name"],
  ["http://example.com:25/", "blocked-port"],
  ["ftp://example.com/", "scheme"],
  ["file:///etc/passwd", "scheme"],
];

const strict = new NetworkGuard(false);

describe("NetworkGuard refuses every bypass attempt", () => {
  test.each(BYPASSES)("%s is refused as %s", async (url, reason) => {
    const verdict = await strict.check(url);
    expect(verdict).toMatchObject({ allowed: false, reason });
  });

  test("the table is at least 25 attempts long", () => {
    expect(BYPASSES.length).toBeGreaterThanOrEqual(25);
  });
});

describe("names that resolve to private addresses (injected resolver)", () => {
  const answers: Record<string, string[]> = {
    "internal.example": ["10.1.2.3"],
    "metadata.example": ["169.254.169.254"],
    "v6.example": ["fd00::1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "nat64.example": ["64:ff9b::a00:1"],
    // One private answer among public ones is enough to refuse: the caller might connect to any.
    "mixed.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "192.168.0.10"],
    "garbage.example": ["not-an-address"],
    "public.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  };
  const resolver: Resolver = async (name) => {
    const list = answers[name];
    if (!list) throw new Error("ENOTFOUND");
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  const guard = new NetworkGuard(false, resolver);

  test.each([
    ["http://internal.example/", "private"],
    ["http://metadata.example/", "link-local"],
    ["http://v6.example/", "unique-local"],
    ["http://mapped.example/", "loopback"],
    ["http://nat64.example/", "private"],
    ["http://mixed.example/", "private"],
    ["http://garbage.example/", "reserved"],
    ["http://nowhere.example/", "unresolvable"],
  ])("%s is refused as %s", async (url, reason) => {
    expect(await guard.check(url)).toMatchObject({ allowed: false, reason });
  });

  test("a name with only public addresses is allowed, and the verdict names the address to connect to", async () => {
    const verdict = await guard.check("https://public.example/page");
    expect(verdict).toMatchObject({ allowed: true, address: "93.184.215.14", family: 4 });
    expect(verdict.allowed && verdict.addresses.map((a) => a.address)).toEqual(answers["public.example"]!);
  });

  test("public addresses, including IPv6 and NAT64/mapped forms of public IPv4, are classified public", () => {
    for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]) {
      expect([a, classifyAddress(a)]).toEqual([a, "public"]);
    }
  });
});

describe("ASSAY_ALLOW_PRIVATE_TARGETS opens loopback only", () => {
  const loose = new NetworkGuard(true);

  test("the default guard refuses loopback; the test guard lets it through", async () => {
    for (const url of ["http://127.0.0.1:8080/", "http://[::1]/", "http://localhost/", "http://127.1/"]) {
      expect(await strict.check(url)).toMatchObject({ allowed: false, reason: "loopback" });
      expect(await loose.check(url)).toMatchObject({ allowed: true });
    }
  });

  test("the test guard still refuses every other non-public address", async () => {
    for (const [url, reason] of BYPASSES.filter(([, reason]) => reason !== "loopback")) {
      expect([url, await loose.check(url)]).toMatchObject([url, { allowed: false, reason }]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// guardedFetch against real local servers (loopback opened with allowLoopback, as ASSAY_ALLOW_PRIVATE_TARGETS=1 does)

interface Seen {
  path: string;
  host: string | null;
  method: string;
  cookie: string | null;
  body: string;
}
let origin: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;
const seen: Seen[] = [];
let otherSeen: Seen[] = [];
const record = async (list: Seen[], req: Request) =>
  list.push({
    path: new URL(req.url).pathname,
    host: req.headers.get("host"),
    method: req.method,
    cookie: req.headers.get("cookie"),
    body: await req.text(),
  });

beforeAll(() => {
  origin = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      await record(seen, req);
      const path = new URL(req.url).pathname;
      const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });
      switch (path) {
        case "/ok":
          return new Response("hello", { headers: { "content-type": "text/plain", "set-cookie": "a=1" } });
        case "/gzip":
          return new Response(gzipSync("compressed ".repeat(100)), {
            headers: { "content-encoding": "gzip", "content-type": "text/plain" },
          });
        case "/big":
          return new Response("x".repeat(200_000));
        case "/gzip-bomb":
          return new Response(gzipSync(Buffer.alloc(5_000_000)), { headers: { "content-encoding": "gzip" } });
        case "/hang":
          return new Promise<Response>(() => {});
        case "/to-metadata":
          return redirect("http://169.254.169.254/latest/meta-data/iam/security-credentials/");
        case "/to-private":
          return redirect("http://10.0.0.1/admin", 301);
        case "/to-ula":
          return redirect("/hop-1", 307);
        case "/hop-1":
          return redirect("http://[fc00::1]/", 308);
        case "/to-internal-name":
          return redirect("http://internal.example/");
        case "/to-decimal-loopback":
          return redirect(`http://2130706433:${origin.port}/ok`);
        case "/chain":
          return redirect("/chain-2", 301);
        case "/chain-2":
          return redirect("/ok", 302);
        case "/loop":
          return redirect("/loop");
        case "/post-303":
          return redirect("/ok", 303);
        case "/to-other-origin":
          return redirect(`http://127.0.0.1:${other.port}/landing`);
        case "/to-file":
          return redirect("file:///etc/passwd");
      }
      return new Response("not found", { status: 404 });
    },
  });
  other = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      await record(otherSeen, req);
      return new Response("other");
    },
  });
});
afterAll(() => {
  origin.stop(true);
  other.stop(true);
});

const resolverFor =
  (answers: Record<string, string>): Resolver =>
  async (name) => {
    if (!answers[name]) throw new Error(`ENOTFOUND ${name}`);
    return [{ address: answers[name]!, family: answers[name]!.includes(":") ? 6 : 4 }];
  };
const testGuard = () => new NetworkGuard(true, resolverFor({ "internal.example": "10.9.8.7" }));
const base = () => `http://127.0.0.1:${origin.port}`;
const ok = (r: GuardedResponse | GuardedRefusal) => {
  if (r.refused) throw new Error(`refused: ${r.detail}`);
  return r;
};

describe("guardedFetch: redirects from an allowed address are re-checked at every hop", () => {
  test.each([
    ["/to-metadata", "http://169.254.169.254/latest/meta-data/iam/security-credentials/", "link-local"],
    ["/to-private", "http://10.0.0.1/admin", "private"],
    ["/to-ula", "http://[fc00::1]/", "unique-local"],
    ["/to-internal-name", "http://internal.example/", "private"],
    ["/to-file", "file:///etc/passwd", "scheme"],
  ])("%s is refused at %s (%s)", async (path, refusedUrl, reason) => {
    const before = seen.length;
    const res = await guardedFetch(testGuard(), base() + path);
    expect(res).toMatchObject({ refused: true, reason, url: refusedUrl });
    expect((res as GuardedRefusal).redirects[0]!.url).toBe(base() + path);
    // Only the allowed hops reached a server; the refused one was never connected to.
    expect(seen.slice(before).every((s) => s.host === `127.0.0.1:${origin.port}`)).toBe(true);
  });

  test("the same redirects are refused by the default guard before any request leaves", async () => {
    const before = seen.length;
    expect(await guardedFetch(new NetworkGuard(false), `${base()}/to-metadata`)).toMatchObject({
      refused: true,
      reason: "loopback",
    });
    expect(seen.length).toBe(before);
  });

  test("allowed redirects are followed and reported; a numeric host is the same loopback address", async () => {
    const res = ok(await guardedFetch(testGuard(), `${base()}/chain`));
    expect(res.status).toBe(200);
    expect(res.protocol).toBe("http/1.1");
    expect(new TextDecoder().decode(res.body)).toBe("hello");
    expect(res.finalUrl).toBe(`${base()}/ok`);
    expect(res.redirects.map((r) => [r.status, r.location])).toEqual([
      [301, `${base()}/chain-2`],
      [302, `${base()}/ok`],
    ]);
    expect(ok(await guardedFetch(testGuard(), `${base()}/to-decimal-loopback`)).finalUrl).toBe(`${base()}/ok`);
  });

  test("a redirect loop ends at maxRedirects with an error, and maxRedirects 0 returns the 3xx itself", async () => {
    const err = await guardedFetch(testGuard(), `${base()}/loop`, { maxRedirects: 3 }).catch((e) => e);
    expect(err).toBeInstanceOf(GuardedFetchError);
    expect(err.kind).toBe("too-many-redirects");
    const raw = ok(await guardedFetch(testGuard(), `${base()}/to-metadata`, { maxRedirects: 0 }));
    expect(raw.status).toBe(302);
    expect(raw.headers.location).toBe("http://169.254.169.254/latest/meta-data/iam/security-credentials/");
  });

  test("303 turns POST into GET; credentials are not carried to another origin", async () => {
    const before = seen.length;
    const res = ok(
      await guardedFetch(testGuard(), `${base()}/post-303`, {
        method: "POST",
        body: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: "s=1" },
      }),
    );
    expect(res.status).toBe(200);
    expect(seen.slice(before).map((s) => [s.method, s.path, s.body, s.cookie])).toEqual([
      ["POST", "/post-303", "a=1", "s=1"],
      ["GET", "/ok", "", "s=1"],
    ]);
    otherSeen = [];
    ok(
      await guardedFetch(testGuard(), `${base()}/to-other-origin`, {
        headers: { cookie: "s=1", authorization: "Bearer t" },
      }),
    );
    expect(otherSeen).toHaveLength(1);
    expect(otherSeen[0]!.cookie).toBeNull();
  });
});

describe("guardedFetch: limits and bodies", () => {
  test("gzip is decoded and the encoding header dropped", async () => {
    const res = ok(await guardedFetch(testGuard(), `${base()}/gzip`));
    expect(new TextDecoder().decode(res.body)).toBe("compressed ".repeat(100));
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.encodedBytes).toBeLessThan(res.body.length);
  });

  test("a body over maxBytes is an error, on the wire and after decoding", async () => {
    const big = await guardedFetch(testGuard(), `${base()}/big`, { maxBytes: 100_000 }).catch((e) => e);
    expect(big).toMatchObject({ name: "GuardedFetchError", kind: "too-large" });
    const bomb = await guardedFetch(testGuard(), `${base()}/gzip-bomb`, { maxBytes: 1_000_000 }).catch((e) => e);
    expect(bomb).toMatchObject({ name: "GuardedFetchError", kind: "too-large" });
  });

  test("an answer that never comes is a timeout error, not a hang", async () => {
    const err = await guardedFetch(testGuard(), `${base()}/hang`, { timeoutMs: 300 }).catch((e) => e);
    expect(err).toMatchObject({ name: "GuardedFetchError", kind: "timeout" });
  });
});

describe("guardedFetch connects to the address it checked (DNS rebinding)", () => {
  test("the name is resolved once; a second, private answer is never used", async () => {
    // First answer: loopback (allowed here, standing in for a public address); every later answer: private.
    const answers: string[] = [];
    const rebinding: Resolver = async (name) => {
      answers.push(name);
      return [{ address: answers.length === 1 ? "127.0.0.1" : "10.0.0.1", family: 4 }];
    };
    const guard = new NetworkGuard(true, rebinding);
    const before = seen.length;
    const res = ok(await guardedFetch(guard, `http://rebind.test:${origin.port}/ok`));
    // rebind.test exists nowhere but in this resolver: reaching the server proves the socket went to the
    // checked address, and the resolver ran exactly once for the whole exchange.
    expect(answers).toEqual(["rebind.test"]);
    expect(res.address).toBe("127.0.0.1");
    expect(seen.slice(before).map((s) => s.host)).toEqual([`rebind.test:${origin.port}`]);
    // The next check sees the rebound answer and refuses it.
    expect(await guardedFetch(guard, `http://rebind.test:${origin.port}/ok`)).toMatchObject({
      refused: true,
      reason: "private",
    });
    expect(seen.length).toBe(before + 1);
  });

  test("https is pinned too: the socket goes to the checked address, SNI and the certificate use the name", async () => {
    const tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { key: TEST_KEY, cert: TEST_CERT },
      fetch: (req) => new Response(`tls host=${req.headers.get("host")}`),
    });
    try {
      const guard = new NetworkGuard(true, resolverFor({ "pinned.test": "127.0.0.1", "other.test": "127.0.0.1" }));
      const res = ok(await guardedFetch(guard, `https://pinned.test:${tls.port}/`, { ca: TEST_CERT }));
      expect(new TextDecoder().decode(res.body)).toBe(`tls host=pinned.test:${tls.port}`);
      // The certificate is for pinned.test only: the same address under another name fails verification.
      const err = await guardedFetch(guard, `https://other.test:${tls.port}/`, { ca: TEST_CERT }).catch((e) => e);
      expect(err).toMatchObject({ name: "GuardedFetchError", kind: "network" });
      expect(err.message).toMatch(/altnames|certificate/i);
    } finally {
      tls.stop(true);
    }
  });

  test("guardedWebSocket is pinned the same way, and refuses what the guard refuses", async () => {
    const hosts: Array<string | null> = [];
    const ws = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req, server) {
        hosts.push(req.headers.get("host"));
        return server.upgrade(req) ? undefined : new Response("no", { status: 400 });
      },
      websocket: { message: (socket, m) => void socket.send(`echo:${m}`) },
    });
    try {
      const guard = new NetworkGuard(true, resolverFor({ "echo.test": "127.0.0.1", "internal.example": "10.0.0.2" }));
      const opened = await guardedWebSocket(guard, `ws://echo.test:${ws.port}/chat`);
      if (opened.refused) throw new Error(opened.detail);
      const reply = await new Promise<string>((resolve, reject) => {
        opened.socket.onopen = () => opened.socket.send("hi");
        opened.socket.onmessage = (e) => resolve(String(e.data));
        opened.socket.onerror = () => reject(new Error("socket error"));
      });
      opened.socket.close();
      expect(reply).toBe("echo:hi");
      expect(hosts).toEqual([`echo.test:${ws.port}`]);
      expect(await guardedWebSocket(guard, "ws://internal.example/")).toMatchObject({
        refused: true,
        reason: "private",
      });
      expect(await guardedWebSocket(new NetworkGuard(false), `ws://127.0.0.1:${ws.port}/`)).toMatchObject({
        refused: true,
        reason: "loopback",
      });
      expect(hosts).toHaveLength(1);
    } finally {
      ws.stop(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Through the HTTP API

describe("url jobs through the HTTP API", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "" });
    key = (await server.signup()).apiKey;
  });
  afterAll(() => server.stop());

  test.each(BYPASSES.filter(([url]) => /^https?:/.test(url)))(
    "%s is PLAYGROUND_INVALID_URL (%s)",
    async (url, reason) => {
      const res = await server.api("POST", "/api/jobs", {
        key,
        body: { type: "url", url, validations: ["page-title"] },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("PLAYGROUND_INVALID_URL");
      expect(res.body.details).toMatchObject({ field: "url", reason });
    },
  );

  test("by default a loopback server is refused, and nothing is charged", async () => {
    const before = seen.length;
    const balance = (await server.api("GET", "/api/credits", { key })).body.balance;
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `${base()}/ok`, validations: ["page-title"] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "PLAYGROUND_INVALID_URL", details: { reason: "loopback" } });
    expect(seen.length).toBe(before);
    expect((await server.api("GET", "/api/credits", { key })).body.balance).toBe(balance);
  });
});

describe("url jobs with ASSAY_ALLOW_PRIVATE_TARGETS=1", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
    key = (await server.signup()).apiKey;
  });
  afterAll(() => server.stop());

  test("loopback opens; private, link-local and the rest stay refused", async () => {
    for (const [url, reason] of [
      ["http://10.0.0.1/", "private"],
      ["http://169.254.169.254/latest/meta-data/", "link-local"],
      ["http://192.168.1.1/", "private"],
      ["http://100.64.0.1/", "cgnat"],
      ["http://[fc00::1]/", "unique-local"],
      ["http://0.0.0.0/", "unspecified"],
    ]) {
      const res = await server.api("POST", "/api/jobs", {
        key,
        body: { type: "url", url, validations: ["page-title"] },
      });
      expect([url, res.status, res.body.code, res.body.details?.reason]).toEqual([
        url,
        400,
        "PLAYGROUND_INVALID_URL",
        reason,
      ]);
    }
  });

  test("a page whose redirect leads to the metadata address is an interruption naming the guard, refunded", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `${base()}/to-metadata`, validations: ["page-title"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].verdict).toBe("error");
    expect(res.body.results[0].reason).toContain("network guard refused http://169.254.169.254/");
    expect(res.body.credits.net).toBe(0);
  });
});

describe("a static_html job's baseUrl passes the same guard as a url job's URL, DNS included, before pricing", () => {
  let server: TestServer;
  let key: string;
  const dir = tempDataDir();
  beforeAll(async () => {
    // The guard resolves through the DNS fixture file: names that point inside, one that points outside, one DNS cannot answer.
    const fixtures = join(dir, "dns.json");
    writeFileSync(
      fixtures,
      JSON.stringify({
        "www.shop.example": { A: ["93.184.215.14"] },
        "intranet.shop.example": { A: ["10.20.30.40"] },
        "rebind.shop.example": { A: ["93.184.215.14", "127.0.0.1"] },
        "v6.shop.example": { AAAA: ["::1"] },
        "assets.shop.example": { CNAME: ["instance-data.cloud.example"] },
        "instance-data.cloud.example": { A: ["169.254.169.254"] },
        "*.slow.example": { error: "ETIMEOUT" },
      }),
    );
    server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "", ASSAY_DNS_FIXTURES: fixtures });
    key = (await server.signup()).apiKey;
  });
  afterAll(() => server.stop());

  const page = `<!doctype html><html lang="en"><head><title>Sale</title></head><body><h1>Sale</h1></body></html>`;
  const htmlAt = (baseUrl: string) => ({ type: "static_html", html: page, baseUrl, validations: ["page-title"] });

  /** Refused with this code on POST /api/jobs and its estimate, with no event, no job and no charge. */
  async function expectRefused(body: unknown, status: number, code: string, details: Record<string, unknown>) {
    const balance = (await server.api("GET", "/api/credits", { key })).body.balance;
    const jobs = (await server.api("GET", "/api/jobs", { key })).body.jobs.length;
    const events = eventCount(server);
    for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
      const res = await server.api("POST", path, { key, body });
      expectError(res, status, code);
      expect(res.body.details).toEqual(details);
    }
    expect(eventCount(server)).toBe(events);
    expect((await server.api("GET", "/api/credits", { key })).body.balance).toBe(balance);
    expect((await server.api("GET", "/api/jobs", { key })).body.jobs.length).toBe(jobs);
  }

  test.each([
    ["https://intranet.shop.example/sale", "private"],
    ["https://rebind.shop.example/sale", "loopback"],
    ["https://v6.shop.example/sale", "loopback"],
    ["https://assets.shop.example/sale", "link-local"],
    ["http://app.localhost/", "loopback"],
  ])("a base at %s (its name resolves to a %s address) is refused as the same url job is", async (baseUrl, reason) => {
    await expectRefused(htmlAt(baseUrl), 400, "PLAYGROUND_INVALID_URL", { field: "baseUrl", reason });
    await expectRefused({ type: "url", url: baseUrl, validations: ["page-title"] }, 400, "PLAYGROUND_INVALID_URL", {
      field: "url",
      reason,
    });
  });

  test("MCP's estimate_job and run_job and the CLI's run --html --page-url refuse the same base, creating nothing", async () => {
    const body = htmlAt("https://intranet.shop.example/sale");
    const events = eventCount(server);
    const client = new Client({ name: "assay-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      for (const name of ["estimate_job", "run_job"]) {
        const result = (await client.callTool({ name, arguments: body })) as CallToolResult;
        expect([
          name,
          result.isError,
          (result.structuredContent as any)?.code,
          (result.structuredContent as any)?.details,
        ]).toEqual([name, true, "PLAYGROUND_INVALID_URL", { field: "baseUrl", reason: "private" }]);
      }
    } finally {
      await client.close();
    }
    const file = join(dir, "sale.html");
    writeFileSync(file, page);
    const cli = await runClient(
      ["run", "--html", file, "--page-url", "https://intranet.shop.example/sale", "--validation", "page-title"],
      {
        XDG_CONFIG_HOME: join(dir, "config"),
        ASSAY_API_KEY: key,
        ASSAY_BASE_URL: server.baseUrl,
      },
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("PLAYGROUND_INVALID_URL");
    expect(eventCount(server)).toBe(events);
  });

  test("DNS that cannot answer for the base is 503 SERVICE_UNAVAILABLE, retryable, as for a url job", async () => {
    await expectRefused(htmlAt("https://www.slow.example/"), 503, "SERVICE_UNAVAILABLE", {
      dependency: "dns",
      field: "baseUrl",
    });
  });

  test("a base whose name resolves to public addresses, or to none at all, is accepted, priced and run", async () => {
    for (const baseUrl of ["https://www.shop.example/sale", "https://missing.example/"]) {
      const estimate = await server.api("POST", "/api/jobs/estimate", { key, body: htmlAt(baseUrl) });
      expect([baseUrl, estimate.status, estimate.body.totalCredits]).toEqual([baseUrl, 200, 1]);
    }
    const job = await server.api("POST", "/api/jobs", { key, body: htmlAt("https://www.shop.example/sale") });
    expect(job.status).toBe(200);
    expect(job.body.results.map((r: { verdict: string }) => r.verdict)).toEqual(["pass"]);
  });
});

// A self-signed certificate for pinned.test only (valid 2000-2100), for the https pinning test.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6j+E64QqeU3B1HVL
RUOxe98sKFD7RCnyHcCD0n5pRpihRANCAASiUPEyzI/rnLyOwM9DU0fDGugBZ1zX
DBSMGO1pcMJr4Qr4iEX1AA8mD2pxfCt1NoFGMPpS2X62gc/7bIHja7ku
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBZzCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtwaW5uZWQu
dGVzdDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLcGlubmVkLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASiUPEyzI/r
nLyOwM9DU0fDGugBZ1zXDBSMGO1pcMJr4Qr4iEX1AA8mD2pxfCt1NoFGMPpS2X62
gc/7bIHja7kuo0owSDAWBgNVHREEDzANggtwaW5uZWQudGVzdDAPBgNVHRMBAf8E
BTADAQH/MB0GA1UdDgQWBBTUek1uKeL4UfWtjVvcCj1L7h4zRDAKBggqhkjOPQQD
AgNIADBFAiAVX/CP0c3ZenQ+gB1MVnm9YrIt3E07Alk1ruwAQTBx+wIhALFxqqRL
3Zp2QjmZTEEKKbmR2vjeWCnTdqPnamNUfmh8
-----END CERTIFICATE-----
`;
