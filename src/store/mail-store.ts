import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Raw received messages under DATA_DIR/mail/<customerId>/<storageKey>. */
export class MailStore {
  constructor(private readonly dataDir: string) {}

  write(customerId: string, storageKey: string, raw: Uint8Array): void {
    const path = this.pathOf(customerId, storageKey);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, raw);
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
