/**
 * The server checks access, issues a one-time ticket and sends the browser to the application, with the
 * sign-in link's state and chosen callback (redirectUri) as the application gave them.
 */
export function appRedirectUrl(appId: string, link: URLSearchParams = new URLSearchParams()): string {
  const query = new URLSearchParams({ appId });
  for (const name of ["state", "redirectUri"]) {
    const value = link.get(name);
    if (value !== null) query.set(name, value);
  }
  return `/api/app-redirect?${query}`;
}
