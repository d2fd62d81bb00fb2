import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AppError } from "../errors/app-error";
import { findCapture, type CaptureRow } from "../../projections/jobs";
import { sha256Hex } from "../store/canonical";
import type { StoredFile } from "../domain/jobs";
import type { Config } from "../config";
import type { ReadModels } from "../../projections/projection";
import type { ObjectStore } from "../store/object-store";

export interface CaptureFile {
  viewport: string;
  contentType: string;
  data: Uint8Array;
}

/** Where a run's screenshots go: the job's in the object store (CaptureService), a playground run's in memory. */
export interface CaptureSink {
  store(customerId: string, jobId: string, key: string, file: CaptureFile): Promise<StoredFile>;
}

/** What is recorded of a stored screenshot (CaptureStored's fields). */
export const storedFileOf = (key: string, file: CaptureFile): StoredFile => ({
  key,
  viewport: file.viewport,
  contentType: file.contentType,
  bytes: file.data.byteLength,
  sha256: sha256Hex(file.data),
});

/**
 * Screenshots in the object store under captures/<customerId>/<jobId>/ (a directory, or a bucket), each recorded by
 * a CaptureStored event (decided by the job, src/domain/jobs.ts). The owner fetches them with a Bearer key; a share
 * link is an HMAC-signed, short-lived URL, signed with a secret every node shares.
 */
export class CaptureService implements CaptureSink {
  // Built before the ServiceContext that holds it, so it takes only what it reads.
  constructor(
    private readonly ctx: { config: Config; readModels: ReadModels },
    private readonly objects: ObjectStore,
    private readonly secret: Buffer,
  ) {}

  /** Where screenshots and received messages are kept (what /healthz shows). */
  storage(): ReturnType<ObjectStore["describe"]> {
    return this.objects.describe();
  }

  /** Writes the file and returns what CaptureStored will record of it (appended with the job's results). */
  async store(customerId: string, jobId: string, key: string, file: CaptureFile): Promise<StoredFile> {
    await this.objects.put(this.keyOf(customerId, jobId, key), file.data);
    return storedFileOf(key, file);
  }

  /**
   * Removes the screenshots a job's run wrote when the job closed without recording any (interrupted: its run
   * failed, or the process stopped before settlement): no CaptureStored names them, so nothing could serve them.
   */
  async discardUnrecorded(customerId: string, jobId: string): Promise<void> {
    await this.objects.deletePrefix(`${dirname(this.keyOf(customerId, jobId, `${jobId}.jpg`))}/`);
  }

  /** The image for its owner; another tenant gets the same 404 as a key that never existed. */
  async read(customerId: string, key: string): Promise<{ row: CaptureRow; data: Uint8Array }> {
    const row = findCapture(this.ctx.readModels, key);
    if (!row || row.customerId !== customerId) throw notFound(key);
    return { row, data: await this.load(row) };
  }

  /** The image for a valid, unexpired share link; no key needed. */
  async readShared(key: string, expires: string, signature: string): Promise<{ row: CaptureRow; data: Uint8Array }> {
    if (!this.validShareLink(key, expires, signature)) {
      throw new AppError(
        "STORAGE_OBJECT_NOT_FOUND",
        "This share link is expired or not valid; ask the owner for a new one.",
        { key },
      );
    }
    const row = findCapture(this.ctx.readModels, key);
    if (!row) throw notFound(key);
    return { row, data: await this.load(row) };
  }

  /**
   * Exactly the link shareUrl wrote, and unexpired: `expires` only as the decimal digits it was written with (no
   * sign, exponent, hex, leading zero or space that Number() would also read), and the signature only as the
   * canonical unpadded base64url of the MAC (Buffer's decoder ignores padding, junk and a last character's unused
   * bits, so the decoded bytes alone would accept altered links).
   */
  private validShareLink(key: string, expires: string, signature: string): boolean {
    if (!/^(0|[1-9]\d{0,15})$/.test(expires)) return false;
    const exp = Number(expires);
    if (exp * 1000 < Date.now()) return false;
    const expected = Buffer.from(this.sign(key, exp).toString("base64url"));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  url(key: string): string {
    return `${this.ctx.config.publicBaseUrl}/api/captures/${key}`;
  }

  shareUrl(key: string, now = Date.now()): string {
    const exp = Math.floor(now / 1000) + this.ctx.config.shareLinkTtlSeconds;
    return `${this.ctx.config.publicBaseUrl}/api/captures/${key}/shared?expires=${exp}&signature=${this.sign(key, exp).toString("base64url")}`;
  }

  private sign(key: string, exp: number): Buffer {
    return createHmac("sha256", this.secret).update(`${key}\n${exp}`).digest();
  }

  private async load(row: CaptureRow): Promise<Uint8Array> {
    const data = await this.objects.get(this.keyOf(row.customerId, row.jobId, row.key));
    if (!data) throw notFound(row.key);
    return data;
  }

  private keyOf(customerId: string, jobId: string, key: string): string {
    if (!/^[\w.-]+$/.test(key) || !/^[\w-]+$/.test(jobId) || !/^[\w-]+$/.test(customerId)) throw notFound(key);
    return `captures/${customerId}/${jobId}/${key}`;
  }
}

const notFound = (key: string) =>
  new AppError("STORAGE_OBJECT_NOT_FOUND", "No capture with this key in your organization.", { key });

/**
 * A random signing secret kept in a directory (ASSAY_SHARED_DIR, or DATA_DIR), so share links survive restarts
 * without configuration and every process using the directory signs and checks the same links. Written whole to a
 * file of its own, then linked into place (which fails if one is there): of processes starting together one places
 * it and the others read that one.
 */
export function persistentSecret(dir: string): Buffer {
  const path = join(dir, "share-link.secret");
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path)) {
    const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, randomBytes(32).toString("hex"), { mode: 0o600 });
    try {
      linkSync(draft, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return Buffer.from(readFileSync(path, "utf8").trim(), "hex");
}
