import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, rmSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { htmlJob, readNodeFile, startServer, type TestServer } from "../support/harness";

const PAGE = `<html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width"></head>
<body><h1>Hello</h1><a href="/go" style="background:#036;color:#fff;padding:12px">Go</a></body></html>`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ ASSAY_SHARE_TTL_SECONDS: "2" });
});
afterAll(() => server.stop());

async function visualJob(apiKey: string) {
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(PAGE, ["no-horizontal-overflow", "cta-visible"]),
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("captures", () => {
  test("a visual result carries its screenshots; the owner's key fetches the exact stored bytes", async () => {
    const { apiKey } = await server.signup();
    const job = await visualJob(apiKey);
    const overflow = job.results.find((r: any) => r.validationId === "no-horizontal-overflow");
    expect(overflow.verdict).toBe("pass");
    expect(overflow.screenshotUrl).toStartWith(`${server.baseUrl}/api/captures/`);
    const cta = job.results.find((r: any) => r.validationId === "cta-visible");
    expect(cta.captures.map((c: any) => c.viewport).sort()).toEqual(["desktop-md", "mobile-sm", "tablet-portrait"]);

    const res = await fetch(overflow.screenshotUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]); // JPEG magic
    // The CaptureStored event recorded this file's hash.
    const key = overflow.screenshotUrl.split("/").pop();
    const recorded = readNodeFile(
      server,
      (db) =>
        db
          .query<{ sha256: string; bytes: number }, [string]>("SELECT sha256, bytes FROM captures WHERE key = ?")
          .get(key)!,
    );
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(recorded.sha256);
    expect(bytes.byteLength).toBe(recorded.bytes);
  });

  test("another tenant gets the same catalogued 404 as a key that never existed; no key is 401", async () => {
    const owner = await server.signup();
    const other = await server.signup();
    const job = await visualJob(owner.apiKey);
    const path = new URL(job.results[0].screenshotUrl).pathname;
    const foreign = await server.api("GET", path, { key: other.apiKey });
    const missing = await server.api("GET", "/api/captures/job_nothing-desktop-md.jpg", { key: other.apiKey });
    for (const res of [foreign, missing]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("STORAGE_OBJECT_NOT_FOUND");
    }
    expect(foreign.body.message).toBe(missing.body.message);
    const anonymous = await server.api("GET", path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("AUTH_REQUIRED");
  });

  test("a share link needs no key, and an altered or expired one is refused", async () => {
    const { apiKey } = await server.signup();
    const job = await visualJob(apiKey);
    const share = job.results[0].screenshotShareUrl as string;
    expect((await fetch(share)).status).toBe(200);
    const altered = share.replace(/signature=([^&]+)/, (_, sig: string) => `signature=${sig.slice(0, -2)}AA`);
    const refused = await fetch(altered);
    expect(refused.status).toBe(404);
    expect((await refused.json()).code).toBe("STORAGE_OBJECT_NOT_FOUND");
    const longer = share.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    expect((await fetch(longer)).status).toBe(404);
    await Bun.sleep(3100); // past the 2-second lifetime configured above
    expect((await fetch(share)).status).toBe(404);
  });

  test("only the exact link is served: altered encodings of a valid signature or expiry are refused", async () => {
    const { apiKey } = await server.signup();
    const job = await visualJob(apiKey);
    const share = new URL(job.results[0].screenshotShareUrl as string);
    const signature = share.searchParams.get("signature")!;
    const expires = share.searchParams.get("expires")!;
    const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // 32 bytes in 43 characters leave the last character's two low bits unused: flipping one decodes the same.
    const last = B64URL.indexOf(signature.at(-1)!);
    const flippedUnusedBit = signature.slice(0, -1) + B64URL[last ^ 1];
    const link = (sig: string, exp: string) => {
      const u = new URL(share);
      u.search = "";
      return `${u}?expires=${encodeURIComponent(exp)}&signature=${encodeURIComponent(sig)}`;
    };
    expect(Buffer.from(flippedUnusedBit, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    const altered = [
      link(flippedUnusedBit, expires),
      link(`${signature}=`, expires),
      link(`${signature}==`, expires),
      link(`${signature}!!`, expires),
      link(`${signature} `, expires),
      link(Buffer.from(signature, "base64url").toString("base64"), expires),
      link(signature, `${expires}.0`),
      link(signature, `0x${Number(expires).toString(16)}`),
      link(signature, `0${expires}`),
      link(signature, `+${expires}`),
      link(signature, ` ${expires}`),
      link(signature, `${Number(expires) / 10}e1`),
    ];
    expect((await fetch(link(signature, expires))).status).toBe(200);
    for (const url of altered) {
      const res = await fetch(url);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
      expect((await res.json()).code).toBe("STORAGE_OBJECT_NOT_FOUND");
    }
  });
});

describe("a job that fails after it was charged", () => {
  test("is JOB_EXECUTION_FAILED (500, retryable), settled with every credit refunded", async () => {
    const local = await startServer();
    try {
      const { apiKey, customerId } = await local.signup();
      // Capture storage cannot write: a file stands where the customer's capture folder must go.
      mkdirSync(join(local.dataDir, "captures"), { recursive: true });
      writeFileSync(join(local.dataDir, "captures", customerId), "not a folder");
      const res = await local.api("POST", "/api/jobs", {
        key: apiKey,
        body: htmlJob(PAGE, ["no-horizontal-overflow"]),
      });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe("JOB_EXECUTION_FAILED");
      expect(res.body.retryable).toBe(true);
      const credits = await local.api("GET", "/api/credits", { key: apiKey });
      expect(credits.body.balance).toBe(1000);
      expect(credits.body.ledger.map((e: any) => e.type)).toEqual([
        "CreditsRefunded",
        "CreditsCharged",
        "CreditsGranted",
      ]);
      const jobs = await local.api("GET", `/api/jobs?jobId=${res.body.details.jobId}`, { key: apiKey });
      expect(jobs.body.jobs[0].status).toBe("interrupted");
      expect(jobs.body.jobs[0].results.every((r: any) => r.verdict === "error")).toBe(true);
      rmSync(join(local.dataDir, "captures", customerId));
    } finally {
      await local.stop();
    }
  });
});
