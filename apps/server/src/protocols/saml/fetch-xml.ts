import { XmlRefusedError } from "./xml-guard.ts";

const timeoutMs = 30_000;

/** Reads metadata from a file path or an http(s) address, refusing more than maxBytes (read in chunks, never all). */
export async function fetchXml(source: string, maxBytes: number, readFile: (path: string) => Promise<string>) {
  if (!/^https?:\/\//.test(source)) {
    const text = await readFile(source);
    if (Buffer.byteLength(text) > maxBytes) throw new XmlRefusedError("document too large");
    return text;
  }
  const response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!response.ok || !response.body) throw new XmlRefusedError(`${source} answered HTTP ${response.status}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new XmlRefusedError("document too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
