/// <reference path="./dstu-modules.d.ts" />
import { existsSync, readFileSync } from "node:fs";
import jkurwa, { type Certificate } from "jkurwa";

const pemBlock = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** A configured trust anchor could not be read; the message names the problem, not the content. */
export class TrustAnchorError extends Error {
  override name = "TrustAnchorError";
}

function pemText(value: string): string {
  // An environment variable may carry the PEM with literal "\n" escapes.
  const text = value.includes("-----BEGIN") ? value : readAnchorFile(value);
  return text.replace(/\\n/g, "\n");
}

function readAnchorFile(path: string): string {
  if (!existsSync(path)) throw new TrustAnchorError("is neither PEM certificates nor a readable file");
  return readFileSync(path, "utf8");
}

/** DIIA_TRUST_ANCHORS and DIIA_INTERMEDIATE_CAS: PEM certificates inline, or the path of a PEM file. */
export function parseTrustAnchors(value: string): Certificate[] {
  const blocks = [...pemText(value).matchAll(pemBlock)].map((match) => match[1] ?? "");
  if (blocks.length === 0) throw new TrustAnchorError("holds no PEM certificate");
  return blocks.map((body, index) => {
    try {
      return jkurwa.Certificate.from_asn1(Buffer.from(body.replace(/\s+/g, ""), "base64"));
    } catch {
      throw new TrustAnchorError(`certificate ${index + 1} cannot be parsed`);
    }
  });
}
