import { S3Client } from "bun";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Where stored files (screenshots, received messages) live: a directory (DATA_DIR, or ASSAY_SHARED_DIR that every
 * node mounts), or an S3-compatible bucket every node reaches. Keys are relative paths (`captures/<customer>/…`).
 */
export interface ObjectStore {
  /** Stores the bytes; once this settles they survive a crash of this process and of its machine. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes every object whose key starts with `prefix` (a job's screenshots nothing records). */
  deletePrefix(prefix: string): Promise<void>;
  /** What /healthz shows of it. */
  describe(): { kind: "directory"; path: string } | { kind: "s3"; endpoint: string; bucket: string };
}

/** Files under a directory, each synced to disk with its directory entry before `put` settles. */
export class DirectoryStore implements ObjectStore {
  constructor(private readonly root: string) {}

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = join(this.root, key);
    mkdirSync(dirname(path), { recursive: true });
    synced(path, "w", (fd) => writeFileSync(fd, data));
    synced(dirname(path), "r", () => {});
  }

  async get(key: string): Promise<Uint8Array | null> {
    const path = join(this.root, key);
    return existsSync(path) ? readFileSync(path) : null;
  }

  async deletePrefix(prefix: string): Promise<void> {
    rmSync(join(this.root, prefix), { recursive: true, force: true });
  }

  describe() {
    return { kind: "directory" as const, path: this.root };
  }
}

/** S3's settings (ASSAY_S3_*): the bucket, and the endpoint of an S3-compatible service other than AWS. */
export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Objects in an S3-compatible bucket, through Bun's own S3 client; a PUT answered 200 is durable by S3's contract. */
export class S3Store implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      bucket: settings.bucket,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.region ? { region: settings.region } : {}),
      ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
      ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
    });
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    await this.client.write(key, data);
  }

  async get(key: string): Promise<Uint8Array | null> {
    const file = this.client.file(key);
    if (!(await file.exists())) return null;
    return new Uint8Array(await file.arrayBuffer());
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (;;) {
      const listed = await this.client.list({ prefix });
      const keys = (listed.contents ?? []).map((o) => o.key);
      // One at a time: a job has a few screenshots, and some S3-compatible servers (s3rver) race on parallel deletes
      // under one prefix (500 InternalError while tidying their directories).
      for (const key of keys) await this.client.delete(key);
      if (!listed.isTruncated || keys.length === 0) return;
    }
  }

  describe() {
    return { kind: "s3" as const, endpoint: this.settings.endpoint ?? "AWS S3", bucket: this.settings.bucket };
  }
}

/** Opens path, does what `use` does with it, then fsyncs and closes it. */
function synced(path: string, flags: "w" | "r", use: (fd: number) => void): void {
  const fd = openSync(path, flags);
  try {
    use(fd);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
