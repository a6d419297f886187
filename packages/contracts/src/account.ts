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
