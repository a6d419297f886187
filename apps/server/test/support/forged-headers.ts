import type { IncomingHttpHeaders } from "node:http";
import type { ApplicationView } from "./apache-examples.ts";
import type { VisitorAnswer } from "./http-visitor.ts";

/**
 * What a signed-in person sends to pass for someone else, for each documented web-server example: a header of each
 * name the example gives the application the person in (and the same name with underscores, which PHP, Apache's
 * CGI variables and some frameworks read as dashes). Every value is one no real person in the test has.
 */
export const forgedHeaders = {
  modAuthCas: {
    "CAS-User": "someone-else",
    "CAS-employeeId": "E-999",
    "CAS-affiliation": "employee,faculty-forged",
    "cas-displayname": "Forged Name",
    CAS_uid: "someone-else-underscored",
  },
  modAuthOpenidc: {
    OIDC_CLAIM_sub: "someone-else",
    OIDC_CLAIM_name: "Forged Name",
    OIDC_CLAIM_kpi_employee_id: "E-999",
    "OIDC-CLAIM-email": "rector-forged@kpi.ua",
    OIDC_access_token: "forged-access-token",
    "Remote-User": "someone-else-remote",
  },
  nginx: {
    "X-Remote-User": "someone-else",
    "Remote-User": "someone-else-remote",
    "X-KPI-ID-User-Id": "00000000-0000-4000-8000-000000000999",
    "X-KPI-ID-Username": "someone-else-username",
    "X-KPI-ID-Name": "Forged Name",
    "X-KPI-ID-Email": "rector-forged@kpi.ua",
    "X-KPI-ID-Affiliations": "employee,faculty-forged",
    X_Remote_User: "someone-else-underscored",
  },
} as const;

/** A header name as Apache's CGI variables and PHP compare it: upper case, dashes as underscores. */
const normalised = (name: string) => name.toUpperCase().replaceAll("-", "_");

/**
 * The person as the application sees them under the example's names: `header NAME` for a request header whose
 * name, normalised, `names` accepts, and `env NAME` for REMOTE_USER and the HTTP_ variables made from such headers.
 */
export function identitySeen(
  view: { headers: IncomingHttpHeaders | Record<string, string>; environment?: Record<string, string> },
  names: RegExp,
): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const [name, value] of Object.entries(view.headers)) {
    if (names.test(normalised(name))) seen[`header ${normalised(name)}`] = String(value);
  }
  for (const [name, value] of Object.entries(view.environment ?? {})) {
    if (name === "REMOTE_USER" || names.test(name.replace(/^HTTP_/, ""))) seen[`env ${name}`] = value;
  }
  return seen;
}

/** The entries of `seen` that carry a forged value: what the application was fooled by. */
export function forgedValuesIn(seen: Record<string, string>, forged: Record<string, string>): string[] {
  const values = Object.values(forged);
  return Object.entries(seen)
    .filter(([, value]) => values.some((bad) => value.includes(bad)))
    .map(([name, value]) => `${name}: ${value}`);
}

/** The echo page's answer behind Apache; throws with the page when Apache answered something else. */
export function applicationView(answer: VisitorAnswer): ApplicationView {
  if (answer.status !== 200 || !answer.body.startsWith("{")) {
    throw new Error(`the application did not answer ${answer.url}: ${answer.status} ${answer.body.slice(0, 300)}`);
  }
  return JSON.parse(answer.body) as ApplicationView;
}
