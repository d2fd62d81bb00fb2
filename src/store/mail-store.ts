import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Raw received messages under DATA_DIR/mail/<customerId>/<storageKey>. */
export class MailStore {
  constructor(private readonly dataDir: string) {}

  /** Writes the message and syncs it and its directory entry to disk: the inbox acknowledges it (250) after this. */
  write(customerId: string, storageKey: string, raw: Uint8Array): void {
    const path = this.pathOf(customerId, storageKey);
    mkdirSync(dirname(path), { recursive: true });
    synced(path, "w", (fd) => writeFileSync(fd, raw));
    synced(dirname(path), "r", () => {});
  }

  read(customerId: string, storageKey: string): Uint8Array {
    const path = this.pathOf(customerId, storageKey);
    if (!existsSync(path)) throw new Error(`stored message ${storageKey} is missing`);
    return readFileSync(path);
  }

  private pathOf(customerId: string, storageKey: string): string {
    if (!/^[\w-]+$/.test(customerId) || !/^[\w.-]+$/.test(storageKey)) throw new Error("invalid storage path");
    return join(this.dataDir, "mail", customerId, storageKey);
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
