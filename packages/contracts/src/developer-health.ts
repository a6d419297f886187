import { z } from "zod";
import { text } from "./text.ts";

/** An application's integration health on the developers' page: its sign-ins and the failures it caused. */

/** Failures kept for an application's health view. */
export const integrationFailureLimit = 50;

/** Why an integration's request was refused, each with a fix on the page. */
export const integrationFailureReasons = [
  "wrong_secret",
  "ticket_invalid",
  "redirect_uri_not_registered",
  "no_access",
  "in_testing",
  "pkce_missing",
  "invalid_client",
  "invalid_grant",
  "suspended",
  // The person refused the consent screen on the ticket path (issue 56): not the integration's mistake, but worth knowing.
  "consent_declined",
  // CAS validations (issue 59), apart from ticket_invalid because each has another fix: the ticket was validated
  // with another service address than /cas/login was given; the pgtUrl could not take a proxy-granting ticket (not
  // https, not on the service's host, or not answering 200); the service is not registered to proxy.
  "service_mismatch",
  "proxy_callback_refused",
  "proxy_not_allowed",
  // A renew=true validation of a ticket not from a sign-in made for it (INVALID_TICKET_SPEC), and a proxy ticket at
  // /serviceValidate or /validate (CAS 3.0 §2.5: only /proxyValidate takes them): the ticket is fine, the call is not.
  "renew_not_met",
  "proxy_ticket_at_service_validate",
] as const;
export type IntegrationFailureReason = (typeof integrationFailureReasons)[number];

export const integrationHealthSchema = z.object({
  /** Successful sign-ins per UTC day, the last 30 days, oldest first (days without any included as 0). */
  signInsPerDay: z.array(z.object({ day: text(), signIns: z.number().int() })),
  /** The last failures the integration caused, newest first: when, how, why; never who. */
  failures: z.array(
    z.object({
      id: text(),
      at: text(),
      protocol: z.enum(["ticket", "oidc", "cas", "ldap"]),
      reason: z.enum(integrationFailureReasons),
      /** For `redirect_uri_not_registered`: the address that was tried (empty otherwise). */
      address: text(),
    }),
  ),
});
export type IntegrationHealth = z.infer<typeof integrationHealthSchema>;
