import { DOMParser, type Element, XMLSerializer } from "@xmldom/xmldom";
import type { ServiceProviderRow } from "../../model/saml/service-providers.ts";
import { certificatePem, type SamlKey } from "./keys.ts";
import { bindings, nameIdFormats, ns, rsaSha256 } from "./namespaces.ts";
import { samlPaths } from "./paths.ts";
import { samlify } from "./samlify.ts";

export interface EntityOptions {
  idpEntityId: string;
  ssoUrl: string;
  key: SamlKey;
  sp: ServiceProviderRow;
  wantAuthnRequestsSigned?: boolean;
}

/**
 * KPI ID signs every assertion, whatever the SP's metadata says
 * (WantAssertionsSigned): samlify reads that flag, so it is set on the copy samlify gets.
 */
function withSignedAssertions(metadataXml: string): string {
  const document = new DOMParser().parseFromString(metadataXml, "text/xml");
  const descriptor = document.getElementsByTagNameNS(ns.md, "SPSSODescriptor")[0] as Element | undefined;
  descriptor?.setAttribute("WantAssertionsSigned", "true");
  return new XMLSerializer().serializeToString(document);
}

/** samlify's view of this IdP and one SP, built per message (cheap, and always from the current key). */
export function samlEntities({ idpEntityId, ssoUrl, key, sp, wantAuthnRequestsSigned = false }: EntityOptions) {
  // The logout endpoints the IdP's metadata names (metadata.ts): without them samlify writes a warning to stderr
  // for every message it builds an IdP for, each SAML sign-in's answer included (found by the campus rush).
  const sloUrl = `${ssoUrl.slice(0, ssoUrl.length - samlPaths.sso.length)}${samlPaths.slo}`;
  const idp = samlify.IdentityProvider({
    entityID: idpEntityId,
    signingCert: certificatePem(key.certificate),
    privateKey: key.privateKeyPem,
    requestSignatureAlgorithm: rsaSha256,
    wantAuthnRequestsSigned,
    // saml-profiles §4.4.4.1: front-channel logout messages are signed.
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    isAssertionEncrypted: sp.encrypt_assertions,
    nameIDFormat: [nameIdFormats.persistent],
    singleSignOnService: [
      { Binding: bindings.redirect, Location: ssoUrl },
      { Binding: bindings.post, Location: ssoUrl },
    ],
    singleLogoutService: [
      { Binding: bindings.redirect, Location: sloUrl },
      { Binding: bindings.post, Location: sloUrl },
    ],
  });
  const spEntity = samlify.ServiceProvider({
    metadata: withSignedAssertions(sp.metadata_xml),
    // The operator's per-SP choice: the Response signed as well as its assertion (login-response.ts signs
    // after encrypting, so the outer signature covers what the SP receives).
    wantMessageSigned: sp.sign_response,
    // Our LogoutRequests and LogoutResponses to it are signed too (samlify reads this from the SP's settings).
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
  });
  return { idp, sp: spEntity };
}
