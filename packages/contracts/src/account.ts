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
