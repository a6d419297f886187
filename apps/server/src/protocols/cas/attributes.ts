import { type CasAttributeName, ticketAuthMethod } from "@kpi-id/contracts";
import { mailWithoutConsent } from "../../model/cas/release-policy.ts";
import type { CasService } from "../../model/cas/services.ts";
import type { UsedCasTicket } from "../../model/cas/tickets.ts";
import { splitFullName } from "../../model/people/names.ts";
import type { PersonRoles } from "../../model/people/profile.ts";
import { rolesTicketData } from "../../model/people/profile.ts";
import { acrOf, signInAmr } from "../../model/sessions/strength.ts";
import type { ApplicationRow, User } from "../../platform/db/schema.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";

/** An attribute's values: one or several (affiliation); an empty value is left out. */
export type CasAttributes = Record<string, string[]>;

/** Each attribute from the ticket exchange's field of the same data kind (contracts' casAttributeNames). */
function valuesOf(name: CasAttributeName, user: User, roles: PersonRoles, ticket: UsedCasTicket): string[] {
  const ticketData = rolesTicketData(roles);
  const single = (value: string | null | undefined) => (value ? [value] : []);
  switch (name) {
    case "uid":
      return [user.username];
    case "userId":
      return [user.id];
    case "displayName":
      return single(user.full_name);
    case "studentId":
      return single(user.student_id);
    case "employeeId":
      return single(user.employee_id);
    case "affiliation":
      return [...roles.affiliations];
    case "studentStatus":
      return single(ticketData.STUDENT_STATUS);
    case "studentUnit":
      return single(ticketData.STUDENT_UNIT);
    case "studentFaculty":
      return single(ticketData.STUDENT_FACULTY);
    case "employeeStatus":
      return single(ticketData.EMPLOYEE_STATUS);
    case "employeeUnit":
      return single(ticketData.EMPLOYEE_UNIT);
    case "employeeFaculty":
      return single(ticketData.EMPLOYEE_FACULTY);
    case "authMethod":
      return [ticketAuthMethod(ticket.authMethod)];
    // The ticket exchange's AUTH_AMR (space-separated there, one value each here) and AUTH_ACR: a service that
    // requires a second factor can check it (mod_auth_cas: Require cas-attribute acr:https://refeds.org/profile/mfa).
    case "amr":
      return [...signInAmr(ticket.authMethod, ticket.amr)];
    case "acr":
      return [acrOf(signInAmr(ticket.authMethod, ticket.amr))];
    case "taxId":
      return single(user.tax_id);
    // Only an address KPI ID saw proven: an application that creates accounts from it (Moodle, GitLab) must not
    // hand a typo, or someone else's address, a person's account.
    case "mail":
      return single(verifiedAddressOf(user));
    // The name's parts as OpenID Connect's given_name and family_name and SAML's givenName and sn read them.
    case "givenName":
      return single(splitFullName(user.full_name).given_name);
    case "sn":
      return single(splitFullName(user.full_name).family_name);
  }
}

/**
 * What the service's validation releases: the attributes its operator named (the tax id only to an application
 * allowed it, the e-mail only where no consent is asked that leaves it out), each under the name the service's
 * renames give it, then CAS 3.0's own about the authentication (authenticationDate, isFromNewLogin,
 * longTermAuthenticationRequestTokenUsed, as Apereo CAS names them).
 */
export function releasedAttributes(
  service: Pick<CasService, "attributes" | "renames">,
  application: Pick<ApplicationRow, "release_tax_id" | "community">,
  user: User,
  roles: PersonRoles,
  ticket: UsedCasTicket,
): CasAttributes {
  const released: CasAttributes = {};
  for (const name of service.attributes) {
    if (name === "taxId" && !application.release_tax_id) continue;
    if (name === "mail" && mailWithoutConsent(application, service.attributes)) continue;
    const values = valuesOf(name, user, roles, ticket);
    if (values.length > 0) released[service.renames[name] ?? name] = values;
  }
  released.authenticationDate = [ticket.authenticatedAt.toISOString()];
  released.isFromNewLogin = [String(ticket.fromNewLogin)];
  released.longTermAuthenticationRequestTokenUsed = ["false"];
  return released;
}
