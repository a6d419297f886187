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
const schemas = {
  entry: readFileSync(new URL("saml-all.xsd", schemaDir), "utf8"),
  preload: schemaFiles.map((fileName) => ({ fileName, contents: readFileSync(new URL(fileName, schemaDir), "utf8") })),
};

/**
 * libxml2 with the schemas parsed once per process, the first time a document is validated. xmllint-wasm (before
 * issue 80's rush found it) started a worker thread, a new WebAssembly instance and parsed the eight schema files for
 * every AuthnRequest: about 180 ms of a core per SAML sign-in. The schemas reach each other by file name alone, and
 * libxml2 reads those names from these buffers only: never the disk, never the network.
 */
const loadValidator = loadOnce(async () => {
  const libxml2 = await import("libxml2-wasm");
  libxml2.xmlRegisterInputProvider(
    new libxml2.XmlBufferInputProvider(
      Object.fromEntries(schemas.preload.map(({ fileName, contents }) => [fileName, Buffer.from(contents, "utf8")])),
    ),
  );
  const schemaDocument = libxml2.XmlDocument.fromString(schemas.entry, { url: "saml-all.xsd" });
  return { libxml2, validator: libxml2.XsdValidator.fromDoc(schemaDocument) };
});

/** Validates against the SAML protocol and metadata schemas (libxml2 in WebAssembly, no network). */
export async function validateSamlSchema(xml: string): Promise<void> {
  const { libxml2, validator } = await loadValidator();
  const { ParseOption, XmlDocument, XmlError } = libxml2;
  let document: InstanceType<typeof XmlDocument>;
  try {
    // guardXml refused any DTD before: no entity is expanded, nothing outside is read.
    document = XmlDocument.fromString(xml, { option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE });
  } catch (error) {
    throw new XmlRefusedError(`schema: ${firstProblem(error, XmlError) ?? "not well-formed"}`);
  }
  try {
    validator.validate(document);
  } catch (error) {
    throw new XmlRefusedError(`schema: ${firstProblem(error, XmlError) ?? "invalid"}`);
  } finally {
    document.dispose();
  }
}

/** libxml2's first message about a document, where the error is libxml2's (else rethrown: not the document's fault). */
function firstProblem(error: unknown, XmlError: abstract new (...args: never[]) => Error): string | undefined {
  if (!(error instanceof XmlError)) throw error;
  const details = (error as Error & { details?: { message: string }[] }).details;
  return (details?.[0]?.message ?? error.message).trim() || undefined;
}
