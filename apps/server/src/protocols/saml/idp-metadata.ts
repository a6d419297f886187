import type { Element } from "@xmldom/xmldom";
import { bindings, ns } from "./namespaces.ts";
import { childrenNamed } from "./sp-metadata.ts";

/** A home institution's identity provider, as a federation's aggregate describes it. */
export interface ParsedIdentityProvider {
  entityId: string;
  displayName: { en: string; uk: string };
  /** shibmd:Scope values: the only suffixes its scoped attributes (eduPersonPrincipalName, …) may carry. */
  scopes: string[];
  /** The entity's own descriptor: what an answer from it is verified against. */
  metadataXml: string;
}

function displayNames(descriptor: Element, entityId: string): { en: string; uk: string } {
  const names = Array.from(descriptor.getElementsByTagNameNS(ns.mdui, "DisplayName"));
  const inLanguage = (language: string) =>
    (names.find((name) => name.getAttribute("xml:lang") === language)?.textContent ?? "").trim();
  const en = inLanguage("en") || (names[0]?.textContent ?? "").trim() || entityId;
  return { en, uk: inLanguage("uk") || en };
}

/** Plain scopes only: a regular-expression scope would let one institution claim another's names. */
function scopesOf(descriptor: Element): string[] {
  return childrenNamed(descriptor, ns.md, "Extensions")
    .flatMap((extensions) => childrenNamed(extensions, ns.shibmd, "Scope"))
    .filter((scope) => !["true", "1"].includes(scope.getAttribute("regexp") ?? "false"))
    .map((scope) => (scope.textContent ?? "").trim().toLowerCase())
    .filter((scope) => scope !== "");
}

/**
 * Reads one `<md:EntityDescriptor>` as a SAML 2.0 identity provider a person can be sent to: it must offer
 * single sign-on over the HTTP-Redirect binding (how KPI ID sends its AuthnRequest). Anything else: undefined.
 */
export function readIdentityProvider(entity: Element, xml: string): ParsedIdentityProvider | undefined {
  const entityId = entity.getAttribute("entityID") ?? "";
  const [descriptor] = childrenNamed(entity, ns.md, "IDPSSODescriptor");
  if (!descriptor || entityId === "") return undefined;
  if (!(descriptor.getAttribute("protocolSupportEnumeration") ?? "").includes("urn:oasis:names:tc:SAML:2.0:protocol"))
    return undefined;
  const redirect = childrenNamed(descriptor, ns.md, "SingleSignOnService").some(
    (service) =>
      service.getAttribute("Binding") === bindings.redirect && URL.canParse(service.getAttribute("Location") ?? ""),
  );
  if (!redirect) return undefined;
  return { entityId, displayName: displayNames(descriptor, entityId), scopes: scopesOf(descriptor), metadataXml: xml };
}
