// No zod here: the sign-in page (first-load JavaScript) reads these names.
/**
 * The sign-in link an application sends people to: `/{lang}/?appId=…&state=…&redirectUri=…`.
 * Every sign-in method carries these three along until the ticket is issued.
 */
export const appLinkParams = ["appId", "state", "redirectUri"] as const;

/** Enough for a random value or a signed one; longer state is not carried (the callback gets none). */
export const appStateMaxLength = 512;

/** A registered callback named by redirectUri is at most this long (it also rides in a cookie during Google sign-in). */
export const appRedirectUriMaxLength = 1024;

/**
 * Added by KPI ID (never by the application) to `/{lang}/apps?appId=…` when the application is on the person's list
 * but its redirectUri is not registered: the page tells the person instead of sending them on (which would loop);
 * `testing` when the application is not live yet (developers' page) and the person is not one of its testers.
 */
export const appLinkRefusal = { param: "refused", redirectUri: "redirectUri", testing: "testing" } as const;
