/** KPI ID as a SAML service provider of the federations it reads (issue 78): its metadata and where answers come. */
export const visitorPaths = {
  metadata: "/saml/sp",
  acs: "/saml/sp/acs",
  institutions: "/api/institutions",
  start: "/api/institution/start",
  finish: "/api/institution/finish",
  welcome: "/api/institution/welcome",
  accept: "/api/institution/accept",
} as const;

/** The browser's half of a sign-in in flight: a random value whose hash the request row keeps. */
export const visitorCookieName = "kpi_id_institution";
