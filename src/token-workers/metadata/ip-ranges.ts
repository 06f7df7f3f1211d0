import { isIPv4, isIPv6 } from "node:net";

/** Why an address may not be fetched from; "public" is the only category the guard lets through. */
export type AddressCategory =
  | "public"
  | "invalid"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link_local"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "reserved";

type V4Range = [base: number, prefix: number, category: AddressCategory];

// IANA IPv4 special-purpose registry, minus the globally reachable entries (e.g. 192.31.196/24 AS112).
const V4_RANGES: V4Range[] = [
  [ip4(0, 0, 0, 0), 8, "unspecified"],
  [ip4(10, 0, 0, 0), 8, "private"],
  [ip4(100, 64, 0, 0), 10, "shared"],
  [ip4(127, 0, 0, 0), 8, "loopback"],
  [ip4(169, 254, 0, 0), 16, "link_local"],
  [ip4(172, 16, 0, 0), 12, "private"],
  [ip4(192, 0, 0, 0), 24, "reserved"],
  [ip4(192, 0, 2, 0), 24, "documentation"],
  [ip4(192, 88, 99, 0), 24, "reserved"],
  [ip4(192, 168, 0, 0), 16, "private"],
  [ip4(198, 18, 0, 0), 15, "reserved"],
  [ip4(198, 51, 100, 0), 24, "documentation"],
  [ip4(203, 0, 113, 0), 24, "documentation"],
  [ip4(224, 0, 0, 0), 4, "multicast"],
  [ip4(255, 255, 255, 255), 32, "broadcast"],
  [ip4(240, 0, 0, 0), 4, "reserved"],
];

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

function parseV4(s: string): number {
  const [a, b, c, d] = s.split(".").map(Number) as [number, number, number, number];
  return ip4(a, b, c, d);
}

function classifyV4(n: number): AddressCategory {
  for (const [base, prefix, category] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === base) return category;
  }
  return "public";
}

/** Eight 16-bit groups; `::` and an embedded dotted IPv4 tail expanded. Input must pass `isIPv6`. */
function parseV6(s: string): number[] {
  let text = s;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const h = head ? head.split(":").map((g) => Number.parseInt(g, 16)) : [];
  if (tail === undefined) return h;
  const t = tail ? tail.split(":").map((g) => Number.parseInt(g, 16)) : [];
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

function classifyV6(g: number[]): AddressCategory {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const embeddedV4 = ((g6 << 16) >>> 0) + g7;
  const zeroTo4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroTo4 && g5 === 0 && g6 === 0 && g7 === 0) return "unspecified";
  if (zeroTo4 && g5 === 0 && g6 === 0 && g7 === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 address itself: classify that.
  if (zeroTo4 && g5 === 0xffff) return classifyV4(embeddedV4);
  // Deprecated IPv4-compatible (::a.b.c.d) and other ::/96 forms.
  if (zeroTo4 && g5 === 0) return "reserved";
  // NAT64 well-known prefix 64:ff9b::/96 translates to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return classifyV4(embeddedV4);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private"; // 64:ff9b:1::/48 local-use NAT64
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "reserved"; // 100::/64 discard
  if (g0 === 0x2001 && g1 === 0x0db8) return "documentation";
  if (g0 === 0x2001 && g1 === 0) return "reserved"; // Teredo: tunnels to an obfuscated IPv4 address
  if (g0 === 0x2002) return classifyV4(((g1 << 16) >>> 0) + g2); // 6to4 embeds the IPv4 address
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return "link_local"; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // fec0::/10 deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return "public";
}

/** Classifies an IP address literal (IPv6 may carry brackets or a %zone). Anything unparsable is "invalid". */
export function classifyAddress(address: string): AddressCategory {
  let a = address.trim();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  if (isIPv4(a)) return classifyV4(parseV4(a));
  if (isIPv6(a)) return classifyV6(parseV6(a.replace(/%.*$/, "")));
  return "invalid";
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === "public";
}
