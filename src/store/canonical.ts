/** Deterministic JSON: object keys sorted at every depth, so a hash over it is reproducible by any auditor. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return `${out}]`;
  }
  // Every append hashes its events through this: a loop over sorted keys (UTF-16 order, as before), no entry arrays.
  const record = value as Record<string, unknown>;
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

export function sha256Hex(text: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}
