import { DOMParser, type Element, type Node } from "@xmldom/xmldom";
import type { ParsedServiceProvider } from "../../model/saml/service-providers.ts";
import { entityAttributeNames, ns } from "./namespaces.ts";
import { guardXml, validateSamlSchema, XmlRefusedError } from "./xml-guard.ts";

/** SP metadata is small; 256 KiB leaves room for many certificates and endpoints. */
export const maxSpMetadataBytes = 256 * 1024;

export type { ParsedServiceProvider };

/** Parses XML that passed guardXml (no DTD, so no entities); parser warnings and errors refuse it. */
export function parseXml(xml: string) {
  const fail = (message: string) => {
    throw new XmlRefusedError(`not well-formed: ${message}`);
  };
  try {
    return new DOMParser({ onError: (level, message) => level !== "warning" && fail(message) }).parseFromString(
      xml,
      "text/xml",
    );
  } catch (error) {
    // xmldom wraps what onError throws in its own ParseError.
    throw error instanceof XmlRefusedError ? error : new XmlRefusedError(`not well-formed: ${String(error)}`);
  }
}

/**
 * A comment between the text nodes of one value: canonicalization drops it, so the
 * signature covers the joined text, while a reader taking the first text node sees
 * another value. Comments between elements (federations annotate entities) are harmless.
 */
export function refuseCommentsInValues(node: Node) {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 8) {
      const siblings = Array.from(node.childNodes);
      if (siblings.some((sibling) => sibling.nodeType === 3 && (sibling.nodeValue ?? "").trim() !== ""))
        throw new XmlRefusedError("a comment inside a value");
    }
    if (child.nodeType === 1) refuseCommentsInValues(child);
  }
}

export function childrenNamed(parent: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.namespaceURI === namespace && element.localName === localName)
      found.push(element);
  }
  return found;
}

function descendantsNamed(parent: Element, namespace: string, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(namespace, localName));
}

/** Values of one mdattr entity attribute, e.g. the entity categories. */
export function entityAttributeValues(entity: Element, name: string): string[] {
  const values: string[] = [];
  for (const extensions of childrenNamed(entity, ns.md, "Extensions"))
    for (const group of childrenNamed(extensions, ns.mdattr, "EntityAttributes"))
      for (const attribute of childrenNamed(group, ns.saml, "Attribute"))
        if (attribute.getAttribute("Name") === name)
          for (const value of childrenNamed(attribute, ns.saml, "AttributeValue"))
            values.push((value.textContent ?? "").trim());
  return values;
}

function displayNameOf(descriptor: Element, entityId: string): string {
  const names = descendantsNamed(descriptor, ns.mdui, "DisplayName");
  const preferred = names.find((name) => name.getAttribute("xml:lang") === "en") ?? names[0];
  return (preferred?.textContent ?? "").trim() || entityId;
}

/** Where SP addresses may point: https only, unless loopback http is allowed (development). */
export interface EndpointRule {
  allowLoopbackHttp: boolean;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An SP address KPI ID sends assertions and logout messages to: https, or http on loopback in development. */
export function isAllowedSpEndpoint(location: string, rule: EndpointRule): boolean {
  if (!URL.canParse(location)) return false;
  const url = new URL(location);
  if (url.protocol === "https:") return true;
  return rule.allowLoopbackHttp && url.protocol === "http:" && loopbackHosts.has(url.hostname);
}

/** An SP whose assertion consumer or logout address is not https (error code saml.sp_endpoint_not_https). */
export class SpEndpointRefusedError extends XmlRefusedError {
  readonly code = "saml.sp_endpoint_not_https";
  /** The code, the SP and its refused addresses (the message adds XmlRefusedError's prefix). */
  readonly detail: string;

  constructor(entityId: string, refused: string[], rule: EndpointRule) {
    const detail = `saml.sp_endpoint_not_https: ${entityId}: ${refused.join(", ")} (every AssertionConsumerService and SingleLogoutService must be https${rule.allowLoopbackHttp ? "; http only on loopback outside production" : " in production"})`;
    super(detail);
    this.detail = detail;
  }
}

/** Refuses an SP descriptor with an ACS or SLO address (Location or ResponseLocation) that is not allowed. */
function checkEndpoints(entityId: string, descriptor: Element, rule: EndpointRule) {
  const refused = ["AssertionConsumerService", "SingleLogoutService"]
    .flatMap((name) => childrenNamed(descriptor, ns.md, name))
    .flatMap((endpoint) => [endpoint.getAttribute("Location"), endpoint.getAttribute("ResponseLocation")])
    .filter((location): location is string => location !== null && location !== "")
    .filter((location) => !isAllowedSpEndpoint(location, rule));
  if (refused.length > 0) throw new SpEndpointRefusedError(entityId, refused, rule);
}

/**
 * Reads one SP's `<md:EntityDescriptor>` element (from its own document or from an aggregate);
 * throws SpEndpointRefusedError for an SP that could not be answered over https.
 */
export function readServiceProvider(
  entity: Element,
  xml: string,
  rule: EndpointRule,
): ParsedServiceProvider | undefined {
  const entityId = entity.getAttribute("entityID") ?? "";
  const [descriptor] = childrenNamed(entity, ns.md, "SPSSODescriptor");
  if (!descriptor || entityId === "") return undefined;
  if (!(descriptor.getAttribute("protocolSupportEnumeration") ?? "").includes("urn:oasis:names:tc:SAML:2.0:protocol"))
    return undefined;
  checkEndpoints(entityId, descriptor, rule);
  return {
    entityId,
    displayName: displayNameOf(descriptor, entityId),
    entityCategories: entityAttributeValues(entity, entityAttributeNames.entityCategory),
    metadataXml: xml,
  };
}

/** One SP's metadata document, checked: size, no DTD, the SAML metadata schema, an SP role, https addresses. */
export async function parseSpMetadata(
  xml: string,
  rule: EndpointRule = { allowLoopbackHttp: false },
): Promise<ParsedServiceProvider> {
  guardXml(xml, { maxBytes: maxSpMetadataBytes, allowComments: true });
  const document = parseXml(xml);
  refuseCommentsInValues(document);
  await validateSamlSchema(xml);
  const root = document.documentElement as Element | null;
  if (!root || root.namespaceURI !== ns.md || root.localName !== "EntityDescriptor")
    throw new XmlRefusedError("expected one md:EntityDescriptor");
  const parsed = readServiceProvider(root, xml, rule);
  if (!parsed) throw new XmlRefusedError("no SAML 2.0 SPSSODescriptor in the metadata");
  return parsed;
}
