/**
 * A small, bounded multipart reader for Diia's callback. Diia sends
 * `multipart/form-data` or `multipart/mixed`, so parts are split here over a
 * body Fastify has already limited (its content-type parser in routes.ts).
 */
export interface MultipartPart {
  name?: string;
  headers: Record<string, string>;
  body: Buffer;
}

export class MalformedMultipartError extends Error {
  override name = "MalformedMultipartError";
}

const maxParts = 20;

export function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new MalformedMultipartError("no boundary");
  return boundary;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MalformedMultipartError("bad part header");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function partName(headers: Record<string, string>): string | undefined {
  const disposition = headers["content-disposition"] ?? "";
  const match = /(?:^|;)\s*name=(?:"([^"]*)"|([^\s;]+))/i.exec(disposition);
  return match?.[1] ?? match?.[2];
}

function parsePart(raw: Buffer): MultipartPart {
  const split = raw.indexOf("\r\n\r\n");
  if (split < 0) throw new MalformedMultipartError("part without header end");
  const headerBlock = raw.subarray(0, split).toString("latin1");
  const headers = headerBlock === "" ? {} : parseHeaders(headerBlock);
  return { name: partName(headers), headers, body: raw.subarray(split + 4) };
}

/** Splits a whole multipart body into parts; throws MalformedMultipartError on anything odd. */
export function parseMultipart(body: Buffer, contentType: string | undefined): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw new MalformedMultipartError("no delimiter");
  while (parts.length <= maxParts) {
    const afterDelimiter = position + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === "--") return parts;
    const start = afterDelimiter + 2; // the CRLF after the delimiter line
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), start);
    if (next < 0) throw new MalformedMultipartError("unterminated part");
    parts.push(parsePart(body.subarray(start, next)));
    position = next + 2;
  }
  throw new MalformedMultipartError("too many parts");
}
