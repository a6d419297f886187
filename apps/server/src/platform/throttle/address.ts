import { isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0] ?? address;
  const ipv4Tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (ipv4Tail) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Tail.split(".").map(Number);
    text = `${text.slice(0, -ipv4Tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
}

/**
 * The part of a client address that throttling counts by. One IPv6 client holds
 * a whole /64 (2^64 addresses to rotate through), so IPv6 is counted by its
 * prefix; IPv4 (and IPv4 mapped into IPv6) by the whole address.
 */
export function throttleAddress(address: string, ipv6PrefixLength: number): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  const masked = groups.map((group, index) => {
    const bitsKept = Math.min(16, Math.max(0, ipv6PrefixLength - index * 16));
    return bitsKept === 0 ? 0 : group & (0xffff << (16 - bitsKept)) & 0xffff;
  });
  return `${masked.map((group) => group.toString(16)).join(":")}/${ipv6PrefixLength}`;
}
