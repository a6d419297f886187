import {
  appRedirectUriMaxLength,
  appStateMaxLength,
  deviceUserCodeSchema,
  type Language,
  oidcInteractionPath,
  text,
} from "@kpi-id/contracts";
import { z } from "zod";

/**
 * Where the browser goes once the person has signed in. Kept on the server's
 * side (a signed, short-lived HttpOnly cookie: sign-in/session/continue-cookie.ts), never in the page's address
 * or storage: the browser carries it, but scripts cannot read it and nobody can change it unnoticed.
 */
export const continueToSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("apps") }),
  // The account page, after the person proved it is them again for a sensitive change.
  z.object({ kind: z.literal("account") }),
  // An application's sign-in link: its state and chosen callback go on to /api/app-redirect unchanged.
  z.object({
    kind: z.literal("application"),
    appId: z.uuid(),
    state: text().max(appStateMaxLength).optional(),
    redirectUri: text().max(appRedirectUriMaxLength).optional(),
  }),
  // An application's OpenID Connect sign-in; `resume` when the provider decides it once someone is signed in.
  z.object({ kind: z.literal("oidc"), uid: text().regex(/^[A-Za-z0-9_-]{1,64}$/), resume: z.literal(true).optional() }),
  // The device sign-in page (/{lang}/device), with the code the person came with (device-routes.ts).
  z.object({ kind: z.literal("device"), userCode: deviceUserCodeSchema.optional() }),
  // A SAML service provider's AuthnRequest waiting on the server (saml_pending_requests.id).
  z.object({ kind: z.literal("saml"), requestId: text().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
  // A CAS client's /cas/login waiting on the server (cas_pending_logins.id).
  z.object({ kind: z.literal("cas"), requestId: text().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
]);
export type ContinueTo = z.infer<typeof continueToSchema>;

/** Where a SAML sign-in continues (saml/sso-routes.ts serves it); sessions sit below the protocols. */
export const samlContinuePath = "/saml/continue";

/** Where a CAS login continues (cas/login-routes.ts serves it). */
export const casContinuePath = "/cas/continue";

/**
 * Where the OpenID Connect provider resumes an interaction (its `/auth/{uid}`, under oidc/provider.ts's prefix):
 * an interaction started only because nobody was signed in goes there straight after the sign-in
 * (oidc/interaction-routes.ts), the provider deciding the rest as for a request that arrives signed in.
 */
export const oidcResumePath = "/oidc/auth";

/** The page a sign-in continues to. */
export function destinationOf(continueTo: ContinueTo, language: Language): string {
  switch (continueTo.kind) {
    case "apps":
      return `/${language}/apps`;
    case "account":
      return `/${language}/account`;
    case "application": {
      const { appId, state, redirectUri } = continueTo;
      const link = new URLSearchParams({ appId });
      if (state !== undefined) link.set("state", state);
      if (redirectUri !== undefined) link.set("redirectUri", redirectUri);
      return `/${language}/apps?${link}`;
    }
    case "device":
      return `/${language}/device${continueTo.userCode ? `?user_code=${encodeURIComponent(continueTo.userCode)}` : ""}`;
    case "oidc":
      return `${continueTo.resume ? oidcResumePath : oidcInteractionPath}/${encodeURIComponent(continueTo.uid)}`;
    case "saml":
      return `${samlContinuePath}/${encodeURIComponent(continueTo.requestId)}`;
    case "cas":
      return `${casContinuePath}/${encodeURIComponent(continueTo.requestId)}`;
  }
}

/** The account page's second-factor card, where a person without a factor is led to set one up. */
export function secondFactorSetUpPath(language: string): string {
  return `/${language}/account#second-factor`;
}

/**
 * The sign-in screen asked to prove a second factor (a step-up sign-in, which starts a new session); what the
 * sign-in was for waits in the continue cookie and is taken when it completes.
 */
export function stepUpSignInPath(language: string): string {
  return `/${language}/?reauth=1&mfa=1`;
}

/** A sign-in link's own values: the application, its state and the callback it named. */
export interface AppLink {
  appId: string;
  state?: string;
  redirectUri?: string;
}

/** The app redirect of a link, which decides again (access, step-up, consent) wherever the browser comes from. */
export function appRedirectPath({ appId, state, redirectUri }: AppLink): string {
  const link = new URLSearchParams({ appId });
  if (state !== undefined) link.set("state", state);
  if (redirectUri !== undefined) link.set("redirectUri", redirectUri);
  return `/api/app-redirect?${link}`;
}
