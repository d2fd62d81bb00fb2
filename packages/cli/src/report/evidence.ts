import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiFailure } from "../client";
import type { JobView } from "../run/verdict";

/** Every screenshot of the rows that did not pass: the row's own and each viewport's or client's, once each. */
function evidenceUrls(job: JobView): string[] {
  const urls = new Set<string>();
  for (const r of job.results) {
    if (r.verdict === "pass") continue;
    if (r.screenshotUrl) urls.add(r.screenshotUrl);
    for (const c of r.captures ?? []) urls.add(c.screenshotUrl);
  }
  return [...urls];
}

/** Writes job.json and every non-pass screenshot (fetched with the key) into dir; answers the files written. */
export async function writeEvidence(dir: string, baseUrl: string, key: string, job: JobView): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written = [join(dir, "job.json")];
  writeFileSync(written[0]!, `${JSON.stringify(job, null, 2)}\n`);
  for (const url of evidenceUrls(job)) {
    const res = await fetch(new URL(url, `${baseUrl}/`), { headers: { authorization: `Bearer ${key}` } });
    if (!res.ok)
      throw new ApiFailure(
        res.status,
        `HTTP_${res.status}`,
        `Could not fetch the screenshot ${url}`,
        res.headers.get("x-request-id"),
      );
    const file = join(dir, decodeURIComponent(new URL(url, `${baseUrl}/`).pathname.split("/").pop()!));
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    written.push(file);
  }
  return written;
}
