import S3rver from "s3rver";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real S3-compatible server for one test file (s3rver, from npm), with one bucket, on a free loopback port. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** What a node needs to keep its files in the bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3(bucket = "assay"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "assay-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    endpoint,
    bucket,
    // s3rver's own credentials; any region.
    env: {
      ASSAY_S3_BUCKET: bucket,
      ASSAY_S3_ENDPOINT: endpoint,
      ASSAY_S3_REGION: "us-east-1",
      ASSAY_S3_ACCESS_KEY_ID: "S3RVER",
      ASSAY_S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
