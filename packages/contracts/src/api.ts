import { z } from "zod";
import { appRedirectUriMaxLength } from "./app-link.ts";
import { type ErrorCode, errorCodes } from "./errors.ts";
import { text } from "./text.ts";

/** The body of every error answer. */
export const errorBodySchema = z.object({
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
  message: text(),
  details: z.array(z.object({ path: text(), message: text() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// NIST SP 800-63B: no composition rules; accept long passphrases without
// truncation, but bound the length so one request cannot make hashing costly.
export const PASSWORD_MAX_LENGTH = 1024;
export const USERNAME_MAX_LENGTH = 256;

export const loginRequestSchema = z.object({
  username: text().min(1).max(USERNAME_MAX_LENGTH),
  password: text().min(1).max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * `secondFactor`: the person has one and this browser is not remembered, so the grant must first go
 * through /api/auth/second-factor with a code. `setUpSecondFactor`: the operator requires one the
 * person has not set up yet; the web leads them to the account page after signing in.
 */
export const loginResponseSchema = z.object({
  sessionId: text(),
  secondFactor: z.literal("totp").optional(),
  setUpSecondFactor: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const internalAuthRequestSchema = z.object({ sessionId: text().min(1).max(512) });
export type InternalAuthRequest = z.infer<typeof internalAuthRequestSchema>;

/** `next`: where the browser goes now (the apps list, or where the sign-in was started from, kept by the server). */
export const internalAuthResponseSchema = z.object({ ok: z.literal(true), next: text() });
export type InternalAuthResponse = z.infer<typeof internalAuthResponseSchema>;

export const authMethods = ["PASSWORD", "GOOGLE", "DIIA", "PASSKEY", "BANK_ID", "INSTITUTION"] as const;
export type AuthMethod = (typeof authMethods)[number];

/**
 * The ticket's AUTH_METHOD keeps the values existing integrations match on (the real KPI ID's, BANK_ID
 * included). A passkey is the person's own KPI ID credential, as a password is, so it reads PASSWORD
 * there; AUTH_AMR tells them apart.
 */
export const ticketAuthMethods = ["PASSWORD", "GOOGLE", "DIIA", "BANK_ID", "INSTITUTION"] as const;
export type TicketAuthMethod = (typeof ticketAuthMethods)[number];
export function ticketAuthMethod(method: AuthMethod): TicketAuthMethod {
  return method === "PASSKEY" ? "PASSWORD" : method;
}

export const applicationSchema = z.object({
  id: text(),
  name: text(),
  title: text(),
  description: text(),
});
export type Application = z.infer<typeof applicationSchema>;

export const currentUserSchema = z.object({
  fullName: text(),
  data: z.record(text(), text()),
  applications: z.array(applicationSchema),
  /** True for a person with a console role (admin, helpdesk): the page links to the console. */
  console: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const ticketDataSchema = z.object({
  /** The person's stable id, the same as OpenID Connect `sub`: what integrators key people by. */
  USER_ID: text(),
  NAME: text(),
  /** Empty unless the application is allowed the tax id (an application setting). */
  TAX_ID: text(),
  STUDENT_ID: text(),
  EMPLOYEE_ID: text(),
  AUTH_METHOD: z.enum(ticketAuthMethods),
  TRACE_ID: text(),
  TIME_STAMP: text(),
  /** How strongly the person signed in: RFC 8176 `amr` values, space-separated (`pwd otp mfa`). */
  AUTH_AMR: text(),
  /** `https://refeds.org/profile/mfa` for a multi-factor sign-in, else `https://refeds.org/profile/sfa`. */
  AUTH_ACR: text(),
  // Campus roles (issue 21): eduPerson affiliations comma-separated; the primary records' status, unit
  // code and faculty code; empty when the person has no such record.
  AFFILIATIONS: text(),
  STUDENT_STATUS: text(),
  STUDENT_UNIT: text(),
  STUDENT_FACULTY: text(),
  EMPLOYEE_STATUS: text(),
  EMPLOYEE_UNIT: text(),
  EMPLOYEE_FACULTY: text(),
});

export const ticketResponseSchema = z.object({
  id: text(),
  created: text(),
  applicationId: text(),
  traceId: text(),
  data: ticketDataSchema,
});
export type TicketResponse = z.infer<typeof ticketResponseSchema>;

export const processingStatuses = ["Processing", "Finished", "Expired", "Failed"] as const;
export type ProcessingStatus = (typeof processingStatuses)[number];

export const diiaAppLinkSchema = z.object({
  deepLink: text(),
  /** An https address to open in a browser (existing clients show it beside the QR code). */
  pageLink: text(),
  requestId: text(),
  createdAt: text(),
});
export type DiiaAppLink = z.infer<typeof diiaAppLinkSchema>;

/**
 * Why a Diia sign-in failed, in what the person can act on: the university has no one with the signer's tax
 * number, Diia's certificate could not be trusted (untrusted, revoked, expired, unverifiable), or the
 * signature came without its signer's certificate, so it could not be checked at all. Only on `Failed`;
 * existing integrations that read `status` alone are unaffected.
 */
export const diiaFailureReasons = ["unknown_person", "certificate", "signer_certificate_absent"] as const;
export type DiiaFailureReason = (typeof diiaFailureReasons)[number];

export const diiaCheckRequestSchema = z.object({
  status: z.enum(processingStatuses),
  sessionId: text().optional(),
  failure: z.enum(diiaFailureReasons).optional(),
});
export type DiiaCheckRequest = z.infer<typeof diiaCheckRequestSchema>;

/** Public settings the web app reads at start-up (support contacts, enabled methods). */
export const publicSettingsSchema = z.object({
  /** The address people open (PUBLIC_URL); calls from any other origin are refused. */
  publicUrl: text(),
  supportEmail: text(),
  supportBotEmployeesUrl: text(),
  supportBotStudentsUrl: text(),
  googleEnabled: z.boolean(),
  diiaEnabled: z.boolean(),
  /** Sign-in with BankID NBU is configured (BANKID_*): the login page shows its button. */
  bankIdEnabled: z.boolean(),
  /** The university shows its own bank picker (from GET /api/banks) instead of BankID's. */
  bankIdBankPicker: z.boolean(),
  /** Researchers of other universities may sign in at home (SAML_VISITOR_FEDERATIONS): "Sign in with your institution". */
  institutionsEnabled: z.boolean().default(false),
  /** A mail relay is configured: "Forgot password?" offers a link by e-mail. */
  emailRecoveryEnabled: z.boolean(),
  sandbox: z.boolean(),
  /** How recent a sign-in a sensitive account change needs (REAUTH_MAX_AGE_SECONDS): the page says so. */
  reauthMaxAgeSeconds: z.number().int().positive(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/**
 * Whether the application the person signs in to was reviewed (live after the university's review, or made by the
 * operators) or is still being tested (registered on the developers' page and not live yet: only its owners and
 * testers may sign in).
 */
export const applicationStageSchema = z.enum(["reviewed", "testing"]);
export type ApplicationStage = z.infer<typeof applicationStageSchema>;

/**
 * The application a sign-in continues to, named on the sign-in page (issue 60) when the page's address names none:
 * an OpenID Connect, SAML or CAS sign-in keeps it in the browser's signed pending sign-in cookie
 * (GET /api/sign-in/continuing; 204 when nothing waits).
 */
export const signInContinuingSchema = z.object({
  title: text(),
  titleEn: text().optional(),
  stage: applicationStageSchema,
});
export type SignInContinuing = z.infer<typeof signInContinuingSchema>;

/** What the sign-in page learns about the application before sign-in (GET /api/app-link). */
export const appLinkCheckSchema = z.object({
  /** Whether appId names a registered application. */
  known: z.boolean(),
  /** Whether redirectUri (when given) is one of the application's registered callbacks exactly. */
  redirectUriRegistered: z.boolean(),
  /**
   * The application the person is signing in to, named on the sign-in page (issue 60); empty when unknown. Its
   * `stage`: `reviewed` (live after the university's review, or made by the operators), `testing` (registered on
   * the developers' page and not live yet: only its owners and testers may sign in).
   */
  title: text().optional(),
  titleEn: text().optional(),
  stage: applicationStageSchema.optional(),
});
export type AppLinkCheck = z.infer<typeof appLinkCheckSchema>;

export const appLinkQuerySchema = z.object({
  appId: text().max(128).optional().catch(undefined),
  redirectUri: text().max(appRedirectUriMaxLength).optional().catch(undefined),
});

/** The button script's content-hashed address and its Subresource Integrity (GET /api/signin-script). */
export const signinScriptSchema = z.object({ path: text(), integrity: text() });
export type SigninScript = z.infer<typeof signinScriptSchema>;
