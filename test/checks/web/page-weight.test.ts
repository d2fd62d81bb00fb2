import { expect, test } from "bun:test";
import type { NetworkEntry } from "../../../src/capture/artifacts";
import { pageWeight } from "../../../src/validations/web/page-weight";
import { artifacts, evaluate } from "../support/web-artifacts";

const entry = (url: string, resourceType: string, bytes: number, over: Partial<NetworkEntry> = {}): NetworkEntry => ({
  url,
  resourceType,
  status: 200,
  bytes,
  ...over,
});

test("a total of exactly maxKb passes, still naming the largest responses", async () => {
  const network = [
    entry("https://shop.example/", "document", 1024, { document: true, contentType: "text/html; charset=utf-8" }),
    entry("https://shop.example/a.js", "script", 1024),
  ];
  const out = await evaluate(pageWeight, artifacts({ network }), { maxKb: 2 });
  expect(out.verdict).toBe("pass");
  expect(out.findings.map((f) => f.message)).toEqual(["1 KB document (text/html)", "1 KB script"]);
});

test("the 1600 KB default applies; failed and refused requests weigh nothing", async () => {
  const network = [
    entry("https://shop.example/", "document", 10_000, { document: true }),
    entry("https://cdn.example/huge.mp4", "media", 0, { status: 0, failure: "net::ERR_FAILED" }),
  ];
  expect((await evaluate(pageWeight, artifacts({ network }))).verdict).toBe("pass");
});

test("over the limit fails, the five largest responses as findings, largest first", async () => {
  const network = [
    entry("https://shop.example/", "document", 3000, { document: true }),
    ...[1, 2, 3, 4, 5].map((i) => entry(`https://shop.example/img${i}.jpg`, "image", i * 100)),
  ];
  const out = await evaluate(pageWeight, artifacts({ network }), { maxKb: 2 });
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.url)).toEqual([
    "https://shop.example/",
    "https://shop.example/img5.jpg",
    "https://shop.example/img4.jpg",
    "https://shop.example/img3.jpg",
    "https://shop.example/img2.jpg",
  ]);
  expect(out.findings[0]!.message).toBe("2.9 KB document");
});
