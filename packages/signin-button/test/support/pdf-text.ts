import { inflateSync } from "node:zlib";

/**
 * Just enough of a PDF reader to check the manual as a reader sees it: the
 * cross-reference table, the page tree, the outline, and the text of each page
 * decoded through the embedded fonts' ToUnicode maps (the text is glyph ids).
 */
interface PdfObject {
  dict: string;
  stream?: Buffer;
}

export interface PdfContents {
  version: string;
  objects: Map<number, PdfObject>;
  pages: string[];
  outline: string[];
  info: string;
}

function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const objects = new Map<number, PdfObject>();
  const text = pdf.toString("latin1");
  const pattern = /(\d+) 0 obj\s*/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("endobj", start);
    const body = text.slice(start, end);
    const streamAt = body.search(/stream\r?\n/);
    const object: PdfObject = { dict: streamAt >= 0 ? body.slice(0, streamAt) : body };
    if (streamAt >= 0) {
      const dataStart = start + streamAt + (body[streamAt + 6] === "\r" ? 8 : 7);
      const length = Number(/\/Length (\d+)/.exec(object.dict)?.[1]);
      const raw = pdf.subarray(dataStart, dataStart + length);
      object.stream = object.dict.includes("/FlateDecode") ? inflateSync(raw) : raw;
    }
    objects.set(Number(match[1]), object);
  }
  return objects;
}

const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1]);

function toUnicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hexChar = (hex: string) =>
    String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16)));
  for (const [, start, , list] of cmap.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*\[([^\]]*)\]/gi)) {
    const targets = [...(list ?? "").matchAll(/<([0-9a-f]+)>/gi)].map((m) => m[1] ?? "");
    const first = Number.parseInt(start ?? "0", 16);
    for (const [index, target] of targets.entries()) map.set(first + index, hexChar(target));
  }
  return map;
}

/** Decodes a PDF literal string (escapes, and UTF-16BE when it starts with a BOM). */
export function decodePdfString(literal: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < literal.length; i++) {
    const char = literal[i] ?? "";
    if (char !== "\\") {
      bytes.push(char.charCodeAt(0));
      continue;
    }
    const next = literal[++i] ?? "";
    const octal = /^[0-7]{1,3}/.exec(literal.slice(i))?.[0];
    if (octal) {
      bytes.push(Number.parseInt(octal, 8));
      i += octal.length - 1;
    } else bytes.push(({ n: 10, r: 13, t: 9, b: 8, f: 12 } as Record<string, number>)[next] ?? next.charCodeAt(0));
  }
  const buffer = Buffer.from(bytes);
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return buffer.subarray(2).swap16().toString("utf16le");
  return buffer.toString("latin1");
}

function pageText(objects: Map<number, PdfObject>, page: PdfObject): string {
  const resources = objects.get(ref(page.dict, "Resources"))?.dict ?? "";
  const fontMaps = new Map<string, Map<number, string>>();
  for (const [, name, id] of resources.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    const font = objects.get(Number(id));
    const cmap = objects.get(ref(font?.dict ?? "", "ToUnicode"))?.stream?.toString("latin1") ?? "";
    fontMaps.set(name ?? "", toUnicodeMap(cmap));
  }
  const content = objects.get(ref(page.dict, "Contents"))?.stream?.toString("latin1") ?? "";
  let current = new Map<number, string>();
  const lines: string[] = [];
  for (const block of content.split(/\bET\b/)) {
    let line = "";
    for (const [, font, hex] of block.matchAll(/\/(F\d+) [\d.]+ Tf|<([0-9a-f]+)>/gi)) {
      if (font) current = fontMaps.get(font) ?? new Map();
      if (hex) for (const code of hex.match(/.{4}/g) ?? []) line += current.get(Number.parseInt(code, 16)) ?? "";
    }
    if (line) lines.push(line);
  }
  return lines.join("\n");
}

export function readPdf(pdf: Buffer): PdfContents {
  const text = pdf.toString("latin1");
  const version = /^%PDF-(\d\.\d)/.exec(text)?.[1];
  if (!version || !text.trimEnd().endsWith("%%EOF")) throw new Error("not a complete PDF");
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  if (!text.startsWith("xref", startxref)) throw new Error("startxref does not point at the xref table");
  const objects = readObjects(pdf);
  const catalog = [...objects.values()].find((object) => object.dict.includes("/Type /Catalog"));
  const pageTree = objects.get(ref(catalog?.dict ?? "", "Pages"));
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(pageTree?.dict ?? "")?.[1] ?? "").matchAll(/(\d+) 0 R/g)];
  const pages = kids.map(([, id]) => pageText(objects, objects.get(Number(id)) ?? { dict: "" }));
  const outline = [...objects.values()]
    .filter((object) => object.dict.includes("/Parent") && object.dict.includes("/Title"))
    .map((object) => decodePdfString(/\/Title \(((?:\\.|[^\\)])*)\)/s.exec(object.dict)?.[1] ?? ""));
  const infoDict = objects.get(Number(/\/Info (\d+) 0 R/.exec(text)?.[1]))?.dict ?? "";
  const titleObject = objects.get(ref(infoDict, "Title"))?.dict ?? infoDict;
  const info = decodePdfString(/\(((?:\\.|[^\\)])*)\)/s.exec(titleObject)?.[1] ?? "");
  return { version, objects, pages, outline, info };
}
