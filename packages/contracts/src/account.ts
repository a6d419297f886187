import { z } from "zod";
import { authMethods } from "./api.ts";
import { text } from "./text.ts";

/** One live session of the signed-in person, as the account page lists it. */
export const accountSessionSchema = z.object({
  id: text(),
  /** Browser name and major version from the user agent; empty when it cannot be told. */
  browser: text(),
  /** Operating system and version from the user agent; empty when it cannot be told. */
  system: text(),
  method: z.enum(authMethods),
  /** ISO 8601 instants. */
  startedAt: text(),
  lastActiveAt: text(),
  /** The address the session signed in from; empty when unknown. */
  address: text(),
  /** True for the session of the browser asking. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionsSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessions = z.infer<typeof accountSessionsSchema>;

export const endSessionRequestSchema = z.object({ sessionId: z.uuid() });
export type EndSessionRequest = z.infer<typeof endSessionRequestSchema>;

/** How many sessions a request ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;

/** One entry of the person's recent security activity (their own audit rows). */
export const accountActivitySchema = z.object({
  /** The audit event type: sign_in, session_start, logout, session_end, oidc_sign_in, ... */
  type: text(),
  result: z.enum(["success", "failure"]),
  /** The sign-in method, when the event has one; empty otherwise. */
  method: text(),
  /** The application's name, when the event concerns one; empty otherwise. */
  application: text(),
  browser: text(),
  system: text(),
  address: text(),
  /** An error code or short reason word; empty when none. */
  reason: text(),
  /** ISO 8601 instant. */
  at: text(),
});
export type AccountActivity = z.infer<typeof accountActivitySchema>;

export const accountActivityListSchema = z.object({ events: z.array(accountActivitySchema) });
export type AccountActivityList = z.infer<typeof accountActivityListSchema>;

/** The person's ways to sign in, as the account page shows them. */
export const accountMethodsSchema = z.object({
  /** The name the person signs in with a password (asked again to confirm a sensitive change). */
  username: text(),
  /** A password is set (the account can sign in with username and password). */
  password: z.boolean(),
  google: z.object({
    /** This person has a Google account linked. */
    linked: z.boolean(),
    /** Google sign-in is configured on this service (linking can start). */
    available: z.boolean(),
  }),
  /** Diia can sign this person in: their tax id is known. */
  diia: z.object({ usable: z.boolean() }),
});
export type AccountMethods = z.infer<typeof accountMethodsSchema>;

/** Where the browser goes to link a Google account (the provider's authorization URL). */
export const googleLinkStartSchema = z.object({ url: text() });
export type GoogleLinkStart = z.infer<typeof googleLinkStartSchema>;

/** An application the person signed in to through OpenID Connect, and what it may read. */
export const connectedApplicationSchema = z.object({
  id: z.uuid(),
  title: text(),
  /** The OpenID Connect scopes it holds: openid, profile, email, kpi, tax_id, offline_access. */
  scopes: z.array(text()),
  /** What the person allowed it through the ticket exchange (ticketConsentData), when they did (issue 56). */
  ticketData: z.array(text()).optional(),
});
export type ConnectedApplication = z.infer<typeof connectedApplicationSchema>;

export const connectedApplicationsSchema = z.object({ applications: z.array(connectedApplicationSchema) });
export type ConnectedApplications = z.infer<typeof connectedApplicationsSchema>;

export const revokeApplicationRequestSchema = z.object({ applicationId: z.uuid() });
export type RevokeApplicationRequest = z.infer<typeof revokeApplicationRequestSchema>;

/** Query parameter the account page reads after a Google link: `linked`, or a Google error reason. */
export const GOOGLE_LINK_PARAM = "google_link";
