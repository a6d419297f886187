import type { Endpoint } from "../fuzz/endpoints.ts";

// Which POSTs the CSRF test of attacks-web.test.ts sends from another origin, kept apart from the test's body.

// Servers whose callbacks a state-changing POST may skip CSRF for: other servers post there, not browsers.
const serverToServer = new Set(["/api/diia/callback", "/api/ticket"]);

/** A POST a browser could send with the person's cookie, so the origin check must stand in front of it. */
export function takesCookieCredentials(endpoint: Endpoint): boolean {
  return (
    endpoint.method === "POST" &&
    !serverToServer.has(endpoint.path) &&
    // The protocols' own endpoints take cross-site posts by design (form_post, SAML HTTP-POST binding).
    !endpoint.path.startsWith("/oidc") &&
    !endpoint.path.startsWith("/saml") &&
    // SCIM takes a bearer token only, never a cookie, so a cross-site post carries no credential.
    !endpoint.path.startsWith("/scim") &&
    // FreeRADIUS's rest module authenticates with its shared secret header, never a cookie (attacks-radius.test.ts).
    !endpoint.path.startsWith("/api/radius/") &&
    // CAS's SAML 1.1 validation reads no cookie and only an XML body, which no cross-site form can send
    // (attacks-cas.test.ts posts one as a form: no ticket is read).
    endpoint.path !== "/cas/samlValidate"
  );
}

/** Endpoints the selection above must contain: a route renamed or dropped out of it fails the test instead of escaping it. */
export const postsThatMustCheckTheOrigin = [
  "/api/auth",
  "/api/auth/internal",
  "/api/auth/logout",
  "/api/account/sessions/end-others",
  "/api/account/google/link",
  "/api/account/google/unlink",
  "/api/account/applications/revoke",
  "/api/auth/second-factor",
  "/api/account/totp",
  "/api/account/totp/confirm",
  "/api/account/totp/remove",
  "/api/account/recovery-codes",
  "/api/auth/passkey/options",
  "/api/auth/passkey",
  "/api/account/passkeys/options",
  "/api/account/passkeys",
  "/api/account/passkeys/rename",
  "/api/account/passkeys/remove",
  // A unit's reviews made final from the console (issue 79).
  "/api/admin/units/{id}/reviews-final",
  // The console's LDAP clients (issue 77).
  "/api/admin/ldap/clients",
  "/api/admin/ldap/clients/{name}/remove",
  // Sponsored guests (issue 78): the sponsor's actions and the invitation link's.
  "/api/account/guests",
  "/api/account/guests/{id}/extend",
  "/api/account/guests/{id}/end",
  "/api/guests/invitation",
  "/api/guests/accept",
  "/api/guests/accept/bankid",
];
