import type { ObjectStore } from "./object-store";

/** Raw received messages, under mail/<customerId>/<storageKey> of the object store (a directory, or a bucket). */
export class MailStore {
  constructor(private readonly objects: ObjectStore) {}

  /** Stores the message durably: the inbox acknowledges it (250) only after this settles. */
  async write(customerId: string, storageKey: string, raw: Uint8Array): Promise<void> {
    await this.objects.put(this.keyOf(customerId, storageKey), raw);
  }

  async read(customerId: string, storageKey: string): Promise<Uint8Array> {
    const raw = await this.objects.get(this.keyOf(customerId, storageKey));
    if (!raw) throw new Error(`stored message ${storageKey} is missing`);
    return raw;
  }

  private keyOf(customerId: string, storageKey: string): string {
    if (!/^[\w-]+$/.test(customerId) || !/^[\w.-]+$/.test(storageKey)) throw new Error("invalid storage path");
    return `mail/${customerId}/${storageKey}`;
  }
}
