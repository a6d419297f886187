// A minimal DER reader and writer: enough for the CMS EnvelopedData shapes BankID NBU sends. jkurwa's
// asn1.js model of it requires `ukm` and knows one content cipher, so the envelope is read and written
// here, element by element (envelope-format.ts), and only what the reader uses is interpreted.

export interface DerNode {
  tag: number;
  /** The element's content (without tag and length). */
  value: Buffer;
  /** The whole element: tag, length and content. */
  encoded: Buffer;
  /** Constructed elements' children. */
  children?: DerNode[];
}

export class DerError extends Error {
  override name = "DerError";
}

function readLength(der: Buffer, at: number): { length: number; next: number } {
  const first = der[at];
  if (first === undefined) throw new DerError("truncated length");
  if (first < 0x80) return { length: first, next: at + 1 };
  const count = first & 0x7f;
  // No indefinite lengths (DER) and nothing longer than 16 MB.
  if (count === 0 || count > 3) throw new DerError("unsupported length");
  let length = 0;
  for (let index = 0; index < count; index++) {
    const byte = der[at + 1 + index];
    if (byte === undefined) throw new DerError("truncated length");
    length = length * 256 + byte;
  }
  return { length, next: at + 1 + count };
}

/** Every element of `der`, in order; throws DerError on anything malformed. */
export function parseDer(der: Buffer, depth = 0): DerNode[] {
  if (depth > 32) throw new DerError("nested too deep");
  const nodes: DerNode[] = [];
  let at = 0;
  while (at < der.length) {
    const tag = der[at] ?? 0;
    // Multi-byte tags appear nowhere in these structures.
    if ((tag & 0x1f) === 0x1f) throw new DerError("unsupported tag");
    const { length, next } = readLength(der, at + 1);
    if (next + length > der.length) throw new DerError("truncated element");
    const value = der.subarray(next, next + length);
    const encoded = der.subarray(at, next + length);
    nodes.push(
      (tag & 0x20) !== 0 ? { tag, value, encoded, children: parseDer(value, depth + 1) } : { tag, value, encoded },
    );
    at = next + length;
  }
  return nodes;
}

/** The single element `der` holds. */
export function parseOne(der: Buffer): DerNode {
  const nodes = parseDer(der);
  const [node] = nodes;
  if (!node || nodes.length !== 1) throw new DerError("expected one element");
  return node;
}

/** The children of a constructed element with the given tag. */
export function childrenOf(node: DerNode | undefined, tag: number): DerNode[] {
  if (!node || node.tag !== tag || !node.children) throw new DerError(`expected tag ${tag.toString(16)}`);
  return node.children;
}

/** A whole element (tag, length, content), checked for its tag. */
export function elementOf(node: DerNode | undefined, tag: number): Buffer {
  if (!node || node.tag !== tag) throw new DerError(`expected tag ${tag.toString(16)}`);
  return node.encoded;
}

/** A primitive element's content, checked for its tag. */
export function contentOf(node: DerNode | undefined, tag: number): Buffer {
  if (!node || node.tag !== tag) throw new DerError(`expected tag ${tag.toString(16)}`);
  return node.value;
}

/** An OBJECT IDENTIFIER's content as dotted text. */
export function oidText(content: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  const [first = 0, ...rest] = parts;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...rest].join(".");
}

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One DER element: tag, length, content. */
export function derElement(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

/** An OBJECT IDENTIFIER element from dotted text. */
export function derOid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes: number[] = [];
  for (const part of [first * 40 + second, ...rest]) {
    const groups: number[] = [part & 0x7f];
    for (let value = Math.floor(part / 128); value > 0; value = Math.floor(value / 128))
      groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return derElement(0x06, Buffer.from(bytes));
}

export const derSequence = (...elements: Buffer[]) => derElement(0x30, Buffer.concat(elements));
export const derOctets = (content: Buffer) => derElement(0x04, content);
export const derNull = Buffer.from([0x05, 0x00]);
export const derInteger = (value: number) => derElement(0x02, Buffer.from([value]));
