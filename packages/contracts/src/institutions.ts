import { z } from "zod";
import { text } from "./text.ts";

/** An institution visitors may sign in from (GET /api/institutions), named in both languages. */
export const institutionSchema = z.object({
  entityId: text(),
  en: text(),
  uk: text(),
  /** Its scopes (shibmd:Scope): the domains people know it by. */
  domains: z.array(text()),
});
export type Institution = z.infer<typeof institutionSchema>;

export const institutionsResponseSchema = z.object({ institutions: z.array(institutionSchema) });
export type InstitutionsResponse = z.infer<typeof institutionsResponseSchema>;

export const institutionStartRequestSchema = z.object({
  entityId: text().min(1).max(1024),
  purpose: z.enum(["sign-in", "link"]).default("sign-in"),
  /** An application's sign-in link (appId, state, redirectUri), kept for after the sign-in as Google does. */
  appId: z.uuid().optional(),
  state: text().max(512).optional(),
  redirectUri: text().max(2048).optional(),
});
export type InstitutionStartRequest = z.input<typeof institutionStartRequestSchema>;

export const institutionStartResponseSchema = z.object({ redirect: text() });

/** What a first sign-in from a home institution would keep, shown for the person to agree to. */
export const institutionWelcomeSchema = z.object({
  institution: z.object({ entityId: text(), en: text(), uk: text() }),
  name: text(),
  email: text().nullable(),
  affiliations: z.array(text()),
  /** The institution reported a multi-factor sign-in (REFEDS MFA). */
  multiFactor: z.boolean(),
});
export type InstitutionWelcome = z.infer<typeof institutionWelcomeSchema>;

/** The page a home institution's answer leads to: the discovery screen, with `request` for the agreement step. */
export const INSTITUTION_REQUEST_PARAM = "request";
export const INSTITUTION_ERROR_PARAM = "error";
