import type { TestKeyPair } from "./keys.ts";
import { signEnveloped } from "./sign.ts";

const md = "urn:oasis:names:tc:SAML:2.0:metadata";

/** An EntityDescriptor as an aggregate lists it (no XML declaration). */
export const entityOf = (metadata: string) => metadata.replace(/^<\?xml[^>]*\?>\s*/, "");

/** A federation's aggregate as PEANO or eduGAIN publish it: EntitiesDescriptor, validUntil, an enveloped RSA-SHA256 signature. */
export function unsignedAggregate(entities: string[], validUntil: Date, id = "_peano-aggregate-1"): string {
  return `<md:EntitiesDescriptor xmlns:md="${md}" ID="${id}" Name="https://peano.uran.ua" validUntil="${validUntil.toISOString()}">${entities.map(entityOf).join("")}</md:EntitiesDescriptor>`;
}

export const signAggregate = (xml: string, key: TestKeyPair): string => signEnveloped(xml, key, "first");

export const signedAggregate = (entities: string[], validUntil: Date, key: TestKeyPair) =>
  signAggregate(unsignedAggregate(entities, validUntil), key);
