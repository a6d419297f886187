import { z } from "zod";
import { text } from "./text.ts";

/**
 * The consent screen on the ticket path (issue 56): a community application (registered on the developers'
 * page) learns who the person is only after they agree. GET /api/app-redirect sends the browser to
 * `/{lang}/consent?ticket={id}`; the screen reads GET {ticketConsentPath}/{id} and answers with a POST there.
 */
export const ticketConsentPath = "/api/app-consent";

/** The query parameter of the consent page that names a waiting ticket request. */
export const ticketConsentParam = "ticket";

/**
 * What the ticket exchange (GET /api/ticket) carries, in the kinds the screen names: the stable id (USER_ID),
 * the name (NAME), student and employee ids, roles (AFFILIATIONS, statuses, units, faculties), how the person
 * signed in (AUTH_METHOD, AUTH_AMR, AUTH_ACR), and the tax id only for an application allowed it.
 */
export const ticketConsentData = ["identifier", "name", "recordIds", "roles", "signInMethod", "taxId"] as const;
export type TicketConsentDatum = (typeof ticketConsentData)[number];

/** Who publishes a community application, for the person to judge it: its pages and its owners' contacts. */
export const applicationPublisherSchema = z.object({
  homePageUrl: text(),
  privacyPolicyUrl: text(),
  /** The owners' names and confirmed e-mail addresses (empty when none is confirmed). */
  owners: z.array(z.object({ name: text(), email: text() })),
});
export type ApplicationPublisher = z.infer<typeof applicationPublisherSchema>;

export const ticketConsentParamsSchema = z.object({ id: z.uuid() });

/** GET {ticketConsentPath}/{id}: what the application would receive. */
export const ticketConsentDetailsSchema = z.object({
  application: z.object({ title: text(), description: text() }),
  data: z.array(z.enum(ticketConsentData)),
  person: z.object({ name: text() }),
  /** Whether operators reviewed and approved the application (it is live); false in testing. */
  reviewed: z.boolean(),
  publisher: applicationPublisherSchema,
});
export type TicketConsentDetails = z.infer<typeof ticketConsentDetailsSchema>;
