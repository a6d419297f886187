import { appRedirectUriMaxLength, appStateMaxLength, type Language, text } from "@kpi-id/contracts";
import { z } from "zod";

/** A path on this host: one leading slash (never two: `//host` leaves it), characters a URI path or query keeps. */
const resumePathPattern = /^\/(?![/\\])[A-Za-z0-9/_.~%?=&!*'()-]*$/;

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
  // A protocol's paused sign-in (OpenID Connect's interaction or device page, SAML's request, CAS's login): the
  // protocol names itself, what waits (its id, for the sign-in page to name the application) and the path that
  // resumes it, so this model knows no protocol's paths (issue 74). The cookie is signed: nobody else writes one.
  z.object({
    kind: z.literal("protocol"),
    protocol: text().regex(/^[a-z][a-z-]{0,31}$/),
    waiting: text()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    path: text().max(512).regex(resumePathPattern),
    // The path is a page of the web app's, under the language the person signs in with (/{lang}/device).
    underLanguage: z.literal(true).optional(),
  }),
]);
export type ContinueTo = z.infer<typeof continueToSchema>;

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
    case "protocol":
      return continueTo.underLanguage ? `/${language}${continueTo.path}` : continueTo.path;
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
