import { SignedXml } from "xml-crypto";
import type { TestKeyPair } from "./keys.ts";

const md = "urn:oasis:names:tc:SAML:2.0:metadata";

/** An EntityDescriptor as an aggregate lists it (no XML declaration). */
export const entityOf = (metadata: string) => metadata.replace(/^<\?xml[^>]*\?>\s*/, "");

/** A federation's aggregate as PEANO or eduGAIN publish it: EntitiesDescriptor, validUntil, an enveloped RSA-SHA256 signature. */
export function unsignedAggregate(entities: string[], validUntil: Date, id = "_peano-aggregate-1"): string {
  return `<md:EntitiesDescriptor xmlns:md="${md}" ID="${id}" Name="https://peano.uran.ua" validUntil="${validUntil.toISOString()}">${entities.map(entityOf).join("")}</md:EntitiesDescriptor>`;
}

export function signAggregate(xml: string, key: TestKeyPair): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: "/*",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(xml, { prefix: "ds", location: { reference: "/*", action: "prepend" } });
  return signer.getSignedXml();
}

export const signedAggregate = (entities: string[], validUntil: Date, key: TestKeyPair) =>
  signAggregate(unsignedAggregate(entities, validUntil), key);
