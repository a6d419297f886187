import { DOMImplementation, type Document, type Element, XMLSerializer } from "@xmldom/xmldom";
import type { SamlConfig } from "../../platform/config/saml.ts";
import type { SamlKey } from "./keys.ts";
import {
  bindings,
  entityAttributeNames,
  nameIdFormats,
  ns,
  refeds,
  rsaSha256,
  strongDigests,
  strongSigningMethods,
} from "./namespaces.ts";
import { samlPaths } from "./paths.ts";
import { samlify } from "./samlify.ts";

type Attributes = Record<string, string>;

/** A tiny element builder over xmldom: values are escaped by the serializer, never by hand. */
function builder(document: Document) {
  return function add(parent: Element, namespace: string, name: string, attributes: Attributes = {}, text?: string) {
    const element = document.createElementNS(namespace, name);
    for (const [key, value] of Object.entries(attributes)) {
      if (key === "xml:lang") element.setAttributeNS(ns.xml, key, value);
      else if (key.includes(":")) element.setAttributeNS(ns[key.split(":")[0] as keyof typeof ns], key, value);
      else element.setAttribute(key, value);
    }
    if (text !== undefined) element.appendChild(document.createTextNode(text));
    parent.appendChild(element);
    return element;
  };
}

type Add = ReturnType<typeof builder>;
const languages = ["uk", "en"] as const;

function addEntityAttributes(add: Add, root: Element, config: SamlConfig) {
  const values: [string, string][] = [];
  if (config.sirtfi) values.push([entityAttributeNames.assuranceCertification, refeds.sirtfi]);
  if (config.researchAndScholarship)
    values.push([entityAttributeNames.entityCategorySupport, refeds.researchAndScholarship]);
  if (values.length === 0) return;
  const extensions = add(root, ns.md, "md:Extensions");
  const entityAttributes = add(extensions, ns.mdattr, "mdattr:EntityAttributes");
  for (const [name, value] of values) {
    const attribute = add(entityAttributes, ns.saml, "saml:Attribute", {
      Name: name,
      NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
    });
    add(attribute, ns.saml, "saml:AttributeValue", {}, value);
  }
}

function addUiInfo(add: Add, descriptor: Element, config: SamlConfig) {
  const extensions = add(descriptor, ns.md, "md:Extensions");
  add(extensions, ns.shibmd, "shibmd:Scope", { regexp: "false" }, config.scope);
  const ui = add(extensions, ns.mdui, "mdui:UIInfo");
  for (const lang of languages) add(ui, ns.mdui, "mdui:DisplayName", { "xml:lang": lang }, config.displayName[lang]);
  for (const lang of languages) add(ui, ns.mdui, "mdui:Description", { "xml:lang": lang }, config.description[lang]);
  add(ui, ns.mdui, "mdui:Logo", { height: "64", width: "64" }, config.logoUrl);
  for (const lang of languages)
    add(ui, ns.mdui, "mdui:InformationURL", { "xml:lang": lang }, config.informationUrl[lang]);
  for (const lang of languages)
    add(ui, ns.mdui, "mdui:PrivacyStatementURL", { "xml:lang": lang }, config.privacyUrl[lang]);
  // The algorithms KPI ID accepts on signed requests: a Shibboleth SP signs HTTP-POST requests with RSA-SHA1
  // unless the IdP's metadata says otherwise, and KPI ID refuses SHA-1.
  for (const algorithm of strongDigests) add(extensions, ns.alg, "alg:DigestMethod", { Algorithm: algorithm });
  for (const algorithm of strongSigningMethods) add(extensions, ns.alg, "alg:SigningMethod", { Algorithm: algorithm });
}

function addKeys(add: Add, descriptor: Element, keys: SamlKey[]) {
  for (const key of keys) {
    const keyDescriptor = add(descriptor, ns.md, "md:KeyDescriptor", { use: "signing" });
    const keyInfo = add(keyDescriptor, ns.ds, "ds:KeyInfo");
    add(add(keyInfo, ns.ds, "ds:X509Data"), ns.ds, "ds:X509Certificate", {}, key.certificate);
  }
}

function addEndpoints(add: Add, descriptor: Element, publicUrl: string) {
  for (const binding of [bindings.redirect, bindings.post])
    add(descriptor, ns.md, "md:SingleLogoutService", { Binding: binding, Location: `${publicUrl}${samlPaths.slo}` });
  add(descriptor, ns.md, "md:NameIDFormat", {}, nameIdFormats.persistent);
  add(descriptor, ns.md, "md:NameIDFormat", {}, nameIdFormats.transient);
  for (const binding of [bindings.redirect, bindings.post])
    add(descriptor, ns.md, "md:SingleSignOnService", { Binding: binding, Location: `${publicUrl}${samlPaths.sso}` });
}

function addOrganizationAndContacts(add: Add, root: Element, config: SamlConfig, supportEmail: string) {
  const organization = add(root, ns.md, "md:Organization");
  for (const lang of languages)
    add(organization, ns.md, "md:OrganizationName", { "xml:lang": lang }, config.displayName[lang]);
  for (const lang of languages)
    add(organization, ns.md, "md:OrganizationDisplayName", { "xml:lang": lang }, config.displayName[lang]);
  for (const lang of languages)
    add(organization, ns.md, "md:OrganizationURL", { "xml:lang": lang }, config.informationUrl[lang]);
  const technical = add(root, ns.md, "md:ContactPerson", { contactType: "technical" });
  add(technical, ns.md, "md:GivenName", {}, "KPI ID support");
  add(technical, ns.md, "md:EmailAddress", {}, `mailto:${supportEmail}`);
  const security = add(root, ns.md, "md:ContactPerson", {
    contactType: "other",
    "remd:contactType": refeds.securityContact,
  });
  add(security, ns.md, "md:GivenName", {}, "KPI ID security");
  add(security, ns.md, "md:EmailAddress", {}, `mailto:${config.securityContactEmail}`);
}

export interface MetadataInput {
  config: SamlConfig;
  publicUrl: string;
  supportEmail: string;
  keys: SamlKey[];
  now: Date;
}

/** The IdP's metadata (SAML metadata 2.0 with mdui, shibmd, mdattr and REFEDS contacts). */
export function buildIdpMetadata({ config, publicUrl, supportEmail, keys, now }: MetadataInput): string {
  const document = new DOMImplementation().createDocument(ns.md, "md:EntityDescriptor", null);
  const root = document.documentElement as Element;
  for (const prefix of ["ds", "mdui", "mdattr", "saml", "shibmd", "remd", "alg"] as const)
    root.setAttributeNS(ns.xmlns, `xmlns:${prefix}`, ns[prefix]);
  root.setAttribute("entityID", config.entityId);
  root.setAttribute("ID", `_kpi-id-metadata-${now.getTime()}`);
  if (config.metadataSigning) {
    root.setAttribute("validUntil", new Date(now.getTime() + config.metadataValidDays * 86_400_000).toISOString());
  }
  const add = builder(document);
  addEntityAttributes(add, root, config);
  const descriptor = add(root, ns.md, "md:IDPSSODescriptor", {
    protocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
  });
  addUiInfo(add, descriptor, config);
  addKeys(add, descriptor, keys);
  addEndpoints(add, descriptor, publicUrl);
  addOrganizationAndContacts(add, root, config, supportEmail);
  const xml = new XMLSerializer().serializeToString(document);
  return config.metadataSigning ? signMetadata(xml, config.metadataSigning) : xml;
}

/** An enveloped RSA-SHA256 signature by the separate metadata key (xml-crypto through samlify). */
function signMetadata(xml: string, signing: { privateKeyPem: string; certificatePem: string }): string {
  return samlify.SamlLib.constructSAMLSignature({
    rawSamlMessage: xml,
    referenceTagXPath: "/*[local-name(.)='EntityDescriptor']",
    privateKey: signing.privateKeyPem,
    // samlify wants the certificate's base64 body and puts the PEM armour on itself.
    signingCert: signing.certificatePem.replace(/-----[A-Z ]+-----|\s/g, ""),
    signatureAlgorithm: rsaSha256,
    isBase64Output: false,
    signatureConfig: {
      prefix: "ds",
      location: { reference: "/*[local-name(.)='EntityDescriptor']", action: "prepend" },
    },
  });
}
