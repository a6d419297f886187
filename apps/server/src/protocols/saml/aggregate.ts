import { type Document, type Element, XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { type ParsedIdentityProvider, readIdentityProvider } from "./idp-metadata.ts";
import { certificatePem } from "./keys.ts";
import { ns } from "./namespaces.ts";
import {
  childrenNamed,
  type EndpointRule,
  type ParsedServiceProvider,
  parseXml,
  readServiceProvider,
  refuseCommentsInValues,
  SpEndpointRefusedError,
} from "./sp-metadata.ts";
import { guardXml, validateSamlSchema, XmlRefusedError } from "./xml-guard.ts";

/** eduGAIN's aggregate is tens of MiB; a federation's own is far smaller. */
export const maxAggregateBytes = 128 * 1024 * 1024;

export interface AggregateService extends ParsedServiceProvider {
  /** The aggregate's validUntil, or the entity's own when earlier. */
  validUntil: Date;
}

export interface AggregateIdentityProvider extends ParsedIdentityProvider {
  validUntil: Date;
}

export interface VerifiedAggregate {
  validUntil: Date;
  serviceProviders: AggregateService[];
  /** The identity providers it lists: home institutions of visitors (issue 78). */
  identityProviders: AggregateIdentityProvider[];
  /** SPs left out because an address of theirs is not https (saml.sp_endpoint_not_https), with why. */
  refused: string[];
}

/**
 * Against signature wrapping: one enveloped signature, a child of the root, whose one
 * reference is the root itself; what is read afterwards is what the signature covered
 * (xml-crypto's signed references), never the document as received.
 */
function verifiedContent(xml: string, document: Document, federationCertificate: string): string {
  const root = document.documentElement as Element;
  const signatures = Array.from(document.getElementsByTagNameNS(ns.ds, "Signature"));
  const [signature] = childrenNamed(root, ns.ds, "Signature");
  if (!signature || signatures.length !== 1)
    throw new XmlRefusedError("the aggregate must carry exactly one signature");
  const references = childrenNamed(signature, ns.ds, "SignedInfo").flatMap((info) =>
    childrenNamed(info, ns.ds, "Reference"),
  );
  const id = root.getAttribute("ID");
  if (references.length !== 1 || !id || references[0]?.getAttribute("URI") !== `#${id}`)
    throw new XmlRefusedError("the signature must cover the aggregate's root element");
  const verifier = new SignedXml({
    publicCert: certificatePem(federationCertificate),
    getCertFromKeyInfo: () => null,
  });
  verifier.loadSignature(signature as unknown as globalThis.Node);
  let valid = false;
  try {
    valid = verifier.checkSignature(xml);
  } catch (error) {
    throw new XmlRefusedError(`bad signature: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [signed] = verifier.getSignedReferences();
  if (!valid || !signed) throw new XmlRefusedError("bad signature");
  return signed;
}

function validUntilOf(element: Element): Date | undefined {
  const value = element.getAttribute("validUntil");
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new XmlRefusedError("validUntil is not a date");
  return date;
}

/** Every EntityDescriptor, at any depth of nested EntitiesDescriptors. */
function entitiesOf(root: Element): Element[] {
  if (root.localName === "EntityDescriptor") return [root];
  return childrenNamed(root, ns.md, "EntitiesDescriptor")
    .flatMap(entitiesOf)
    .concat(childrenNamed(root, ns.md, "EntityDescriptor"));
}

/**
 * A federation's metadata aggregate, checked in this order: size and no DTD, no comment
 * inside a value, the SAML metadata schema, the federation's signature, validUntil in
 * the future. Answers the SAML 2.0 SPs it lists.
 */
export async function verifyAggregate(
  xml: string,
  options: { certificate: string; now: Date; maxBytes?: number; endpoints?: EndpointRule },
): Promise<VerifiedAggregate> {
  guardXml(xml, { maxBytes: options.maxBytes ?? maxAggregateBytes, allowComments: true });
  refuseCommentsInValues(parseXml(xml));
  await validateSamlSchema(xml);
  const signedXml = verifiedContent(xml, parseXml(xml), options.certificate);
  const root = parseXml(signedXml).documentElement as Element;
  if (root.namespaceURI !== ns.md || !["EntitiesDescriptor", "EntityDescriptor"].includes(root.localName ?? ""))
    throw new XmlRefusedError("not SAML metadata");
  const validUntil = validUntilOf(root);
  if (!validUntil) throw new XmlRefusedError("the aggregate has no validUntil");
  if (validUntil.getTime() <= options.now.getTime())
    throw new XmlRefusedError(`the aggregate expired at ${validUntil.toISOString()}`);
  const serializer = new XMLSerializer();
  const serviceProviders: AggregateService[] = [];
  const refused: string[] = [];
  const identityProviders: AggregateIdentityProvider[] = [];
  for (const entity of entitiesOf(root)) {
    const own = validUntilOf(entity);
    if (own && own.getTime() <= options.now.getTime()) continue;
    const entityValidUntil = own && own < validUntil ? own : validUntil;
    const identityProvider = readIdentityProvider(entity, serializer.serializeToString(entity));
    if (identityProvider) identityProviders.push({ ...identityProvider, validUntil: entityValidUntil });
    try {
      const rule = options.endpoints ?? { allowLoopbackHttp: false };
      const parsed = readServiceProvider(entity, serializer.serializeToString(entity), rule);
      if (parsed) serviceProviders.push({ ...parsed, validUntil: entityValidUntil });
    } catch (error) {
      // One SP with an http address does not cost the federation its other SPs.
      if (!(error instanceof SpEndpointRefusedError)) throw error;
      refused.push(error.detail);
    }
  }
  return { validUntil, serviceProviders, identityProviders, refused };
}
