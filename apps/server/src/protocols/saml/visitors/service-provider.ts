import type { IdentityProviderRow } from "../../../model/saml/identity-providers.ts";
import { certificatePem, type SamlKey } from "../keys.ts";
import { bindings, nameIdFormats, rsaSha256 } from "../namespaces.ts";
import { samlify } from "../samlify.ts";
import { visitorPaths } from "./paths.ts";

export interface ServiceProviderSite {
  publicUrl: string;
}

export const spEntityIdOf = (site: ServiceProviderSite) => `${site.publicUrl}${visitorPaths.metadata}`;
export const acsUrlOf = (site: ServiceProviderSite) => `${site.publicUrl}${visitorPaths.acs}`;

/**
 * KPI ID as a service provider, with one of its SAML keys: it signs its AuthnRequests with it and institutions
 * encrypt assertions to it (the metadata publishes the same certificate for both, as Shibboleth SPs do).
 */
export function visitorServiceProvider(site: ServiceProviderSite, key: SamlKey, signRequests = true) {
  return samlify.ServiceProvider({
    entityID: spEntityIdOf(site),
    // samlify refuses a signed AuthnRequest to an IdP whose metadata does not ask for one (WantAuthnRequestsSigned).
    authnRequestsSigned: signRequests,
    wantAssertionsSigned: true,
    wantMessageSigned: false,
    requestSignatureAlgorithm: rsaSha256,
    privateKey: key.privateKeyPem,
    signingCert: certificatePem(key.certificate),
    encPrivateKey: key.privateKeyPem,
    encryptCert: certificatePem(key.certificate),
    nameIDFormat: [nameIdFormats.persistent, nameIdFormats.transient],
    assertionConsumerService: [{ Binding: bindings.post, Location: acsUrlOf(site) }],
    // The assertion's NotBefore and NotOnOrAfter, with the clock difference federations allow (SAML2int: 3 min).
    clockDrifts: [-180_000, 180_000],
  });
}

/** The home institution as samlify sees it; `encrypted`: read its assertion as an EncryptedAssertion. */
export function institutionEntity(institution: IdentityProviderRow, encrypted: boolean) {
  return samlify.IdentityProvider({
    metadata: institution.metadata_xml,
    isAssertionEncrypted: encrypted,
  });
}
