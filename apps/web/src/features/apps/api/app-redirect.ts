/** The server checks access, issues a one-time ticket and sends the browser to the application. */
export function appRedirectUrl(appId: string): string {
  return `/api/app-redirect?${new URLSearchParams({ appId })}`;
}
