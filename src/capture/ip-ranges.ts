/**
 * Classifies IP addresses for the network guard. Only public unicast addresses are "public";
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address.
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "multicast"
  | "unspecified"
  | "reserved";

const V4_RANGES: Array<[string, number, AddressClass]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function v4ToInt(a: string): number | null {
  const parts = a.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

function classifyV4(address: string): AddressClass | null {
  const n = v4ToInt(address);
  if (n === null) return null;
  for (const [base, bits, cls] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === (v4ToInt(base)! & mask) >>> 0) return cls;
  }
  return "public";
}

/** Expands an IPv6 address (with an optional trailing dotted IPv4) into eight 16-bit groups. */
function parseV6(address: string): number[] | null {
  let a = address.replace(/^\[|\]$/g, "").toLowerCase();
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const tail = a.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const n = v4ToInt(tail[1]!);
    if (n === null) return null;
    a = `${a.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

const v4From = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** An address that merely wraps an IPv4 one: refused like the IPv4 address, and never public itself. */
const embedded = (hi: number, lo: number): AddressClass => {
  const cls = classifyV4(v4From(hi, lo))!;
  return cls === "public" ? "reserved" : cls;
};

function classifyV6(address: string): AddressClass | null {
  const g = parseV6(address);
  if (!g) return null;
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return "unspecified";
  if (zeroPrefix(7) && g[7] === 1) return "loopback";
  if (zeroPrefix(5) && g[5] === 0xffff) return classifyV4(v4From(g[6]!, g[7]!)); // ::ffff:a.b.c.d, reached as IPv4
  if (zeroPrefix(4) && g[4] === 0xffff && g[5] === 0) return embedded(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (SIIT)
  if (zeroPrefix(6)) return embedded(g[6]!, g[7]!); // ::a.b.c.d (deprecated compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    // 64:ff9b::/96 reaches the embedded IPv4 address through NAT64; 64:ff9b:1::/48 is for local use.
    return g.slice(2, 6).every((x) => x === 0) ? classifyV4(v4From(g[6]!, g[7]!)) : "reserved";
  }
  if (g[0] === 0x2002) return classifyV4(v4From(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1]! < 0x200) return "reserved"; // 2001::/23: Teredo (reaches any IPv4 host), benchmarking, ORCHID
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "reserved"; // documentation
  if (g[0] === 0x3fff && g[1]! < 0x1000) return "reserved"; // 3fff::/20, documentation
  if (g[0] === 0x100 && zeroPrefix(4)) return "reserved";
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "private";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if ((g[0]! & 0xe000) !== 0x2000) return "reserved"; // outside global unicast 2000::/3
  return "public";
}

export function classifyAddress(address: string): AddressClass | null {
  return classifyV4(address) ?? classifyV6(address);
}
