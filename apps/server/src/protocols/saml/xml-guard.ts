import { readFileSync } from "node:fs";
import { loadOnce } from "../../platform/load-once.ts";

/**
 * Every XML document the service reads (AuthnRequests, logout messages, SP
 * metadata, federation aggregates) passes these checks before samlify or any
 * DOM sees it. SAML messages carry no DTD (saml-sec-consider §6.3 on XML
 * attacks), so a document type declaration alone refuses a document: that
 * shuts out entity expansion and external entities at the door.
 */
export class XmlRefusedError extends Error {
  override name = "XmlRefusedError";
  readonly reason: string;
  constructor(reason: string) {
    super(`XML refused: ${reason}`);
    this.reason = reason;
  }
}

export interface XmlLimits {
  maxBytes: number;
  /** Protocol messages carry no comments; a comment inside a signed value is an attack on text extraction. */
  allowComments: boolean;
}

type XmlCheck = (xml: string, limits: XmlLimits) => string | undefined;

const withinSize: XmlCheck = (xml, { maxBytes }) =>
  Buffer.byteLength(xml, "utf8") > maxBytes ? "document too large" : undefined;
const noDoctype: XmlCheck = (xml) =>
  /<!DOCTYPE/i.test(xml) ? "document type declarations are not allowed" : undefined;
const noEntityDeclaration: XmlCheck = (xml) =>
  /<!ENTITY/i.test(xml) ? "entity declarations are not allowed" : undefined;
const noComments: XmlCheck = (xml, { allowComments }) =>
  !allowComments && xml.includes("<!--") ? "comments are not allowed in SAML messages" : undefined;
const noProcessingInstructions: XmlCheck = (xml) =>
  /<\?(?!xml[\s?])/i.test(xml) ? "processing instructions are not allowed" : undefined;

const checks: XmlCheck[] = [withinSize, noDoctype, noEntityDeclaration, noComments, noProcessingInstructions];

export function guardXml(xml: string, limits: XmlLimits): void {
  for (const check of checks) {
    const problem = check(xml, limits);
    if (problem) throw new XmlRefusedError(problem);
  }
}

const schemaDir = new URL("./schemas/", import.meta.url);
const schemaFiles = [
  "saml-schema-protocol-2.0.xsd",
  "saml-schema-assertion-2.0.xsd",
  "saml-schema-metadata-2.0.xsd",
  "xmldsig-core-schema.xsd",
  "xenc-schema.xsd",
  "xml.xsd",
  "XMLSchema.dtd",
  "datatypes.dtd",
];
// The schemas are read at start-up, so an installation without them stops there and not at its first SAML
// request; libxml2 (WebAssembly, the heavy part) is loaded at the first validation (issue 41).
export const samlSchemas = {
  entry: { fileName: "saml-all.xsd", contents: readFileSync(new URL("saml-all.xsd", schemaDir), "utf8") },
  preload: schemaFiles.map((fileName) => ({ fileName, contents: readFileSync(new URL(fileName, schemaDir), "utf8") })),
};
const loadValidator = loadOnce(() => import("xmllint-wasm"));

/** WebAssembly pages of 64 KiB: room for the largest aggregate we accept. */
const maxMemoryPages = 16384;

/** Validates against the SAML protocol and metadata schemas (libxml2 in WebAssembly, no network). */
export async function validateSamlSchema(xml: string): Promise<void> {
  const { validateXML } = await loadValidator();
  const result = await validateXML({
    xml: [{ fileName: "document.xml", contents: xml }],
    schema: [samlSchemas.entry],
    preload: samlSchemas.preload,
    extension: "schema",
    maxMemoryPages,
  });
  if (!result.valid) throw new XmlRefusedError(`schema: ${result.errors[0]?.message ?? "invalid"}`);
}
