// A minimal DER tree: enough to swap one encoded element for another and
// recompute every enclosing length. The stand-in's envelope maker needs it
// because jkurwa's asn1.js model cannot encode a content cipher's parameters
// (its parameters chooser is given no parent object when encoding).

interface Node {
  tag: number;
  /** Constructed elements hold children; primitive ones hold their bytes. */
  children?: Node[];
  value: Buffer;
}

function readLength(der: Buffer, at: number): { length: number; next: number } {
  const first = der[at] ?? 0;
  if (first < 0x80) return { length: first, next: at + 1 };
  const count = first & 0x7f;
  let length = 0;
  for (let index = 0; index < count; index++) length = length * 256 + (der[at + 1 + index] ?? 0);
  return { length, next: at + 1 + count };
}

function parse(der: Buffer): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  while (at < der.length) {
    const tag = der[at] ?? 0;
    const { length, next } = readLength(der, at + 1);
    const value = der.subarray(next, next + length);
    nodes.push((tag & 0x20) !== 0 ? { tag, value, children: parse(value) } : { tag, value });
    at = next + length;
  }
  return nodes;
}

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function serialize(nodes: Node[], original: Buffer, replacement: Buffer): Buffer {
  return Buffer.concat(
    nodes.map((node) => {
      const encoded = Buffer.concat([Buffer.from([node.tag]), lengthBytes(node.value.length), node.value]);
      if (encoded.equals(original)) return replacement;
      if (!node.children) return encoded;
      const value = serialize(node.children, original, replacement);
      return Buffer.concat([Buffer.from([node.tag]), lengthBytes(value.length), value]);
    }),
  );
}

/** The DER with each element equal to `original` replaced by `replacement`. */
export function replaceDerElement(der: Buffer, original: Buffer, replacement: Buffer): Buffer {
  return serialize(parse(der), original, replacement);
}

/** One DER element: tag, length, content. */
export function derElement(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}
