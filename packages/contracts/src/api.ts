import { z } from "zod";
import { type ErrorCode, errorCodes } from "./errors.ts";

/** The body of every error answer. */
export const errorBodySchema = z.object({
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// NIST SP 800-63B: no composition rules; accept long passphrases without
// truncation, but bound the length so one request cannot make hashing costly.
export const PASSWORD_MAX_LENGTH = 1024;
export const USERNAME_MAX_LENGTH = 256;

export const loginRequestSchema = z.object({
  username: z.string().min(1).max(USERNAME_MAX_LENGTH),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ sessionId: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const internalAuthRequestSchema = z.object({ sessionId: z.string().min(1).max(512) });
export type InternalAuthRequest = z.infer<typeof internalAuthRequestSchema>;

/** `next`: where the browser goes now (the apps list, or where the sign-in was started from, kept by the server). */
export const internalAuthResponseSchema = z.object({ ok: z.literal(true), next: z.string() });
export type InternalAuthResponse = z.infer<typeof internalAuthResponseSchema>;

export const authMethods = ["PASSWORD", "GOOGLE", "DIIA"] as const;
export type AuthMethod = (typeof authMethods)[number];

/** The person's fields as the ticket protocol keys them; the "My data" dialog lists these. */
export const userDataKeys = ["NAME", "EMAIL", "TAX_ID", "STUDENT_ID", "EMPLOYEE_ID", "AUTH_METHOD"] as const;
export type UserDataKey = (typeof userDataKeys)[number];

export const applicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

export const currentUserSchema = z.object({
  fullName: z.string(),
  data: z.record(z.string(), z.string()),
  applications: z.array(applicationSchema),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const ticketDataSchema = z.object({
  NAME: z.string(),
  TAX_ID: z.string(),
  STUDENT_ID: z.string(),
  EMPLOYEE_ID: z.string(),
  AUTH_METHOD: z.enum(authMethods),
  TRACE_ID: z.string(),
  TIME_STAMP: z.string(),
});

export const ticketResponseSchema = z.object({
  id: z.string(),
  created: z.string(),
  applicationId: z.string(),
  traceId: z.string(),
  data: ticketDataSchema,
});
export type TicketResponse = z.infer<typeof ticketResponseSchema>;

export const processingStatuses = ["Processing", "Finished", "Expired", "Failed"] as const;
export type ProcessingStatus = (typeof processingStatuses)[number];

export const diiaAppLinkSchema = z.object({
  deepLink: z.string(),
  requestId: z.string(),
  createdAt: z.string(),
});
export type DiiaAppLink = z.infer<typeof diiaAppLinkSchema>;

export const diiaCheckRequestSchema = z.object({
  status: z.enum(processingStatuses),
  sessionId: z.string().optional(),
});
export type DiiaCheckRequest = z.infer<typeof diiaCheckRequestSchema>;

/** Public settings the web app reads at start-up (support contacts, enabled methods). */
export const publicSettingsSchema = z.object({
  /** The address people open (PUBLIC_URL); calls from any other origin are refused. */
  publicUrl: z.string(),
  supportEmail: z.string(),
  supportBotEmployeesUrl: z.string(),
  supportBotStudentsUrl: z.string(),
  googleEnabled: z.boolean(),
  diiaEnabled: z.boolean(),
  sandbox: z.boolean(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
