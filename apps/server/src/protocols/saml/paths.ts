/**
 * The IdP's endpoints. Apart from the modules that build and read SAML messages, which need samlify,
 * xml-crypto and xmldom and load on the first SAML request (issue 41: not at start-up).
 */
export const samlPaths = { metadata: "/saml/metadata", sso: "/saml/sso", slo: "/saml/slo" } as const;

/** Where a SAML sign-in continues once someone is signed in (sso-routes.ts serves it). */
export const samlContinuePath = "/saml/continue";

/** The page that walks the browser through a front-channel logout round, one SP at a time. */
export const logoutRoundPath = (id: string) => `/saml/logout/${id}`;
