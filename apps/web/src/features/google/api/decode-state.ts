// An application id is a uuid today; anything outside this shape is ignored
// rather than echoed into a URL.
const appIdPattern = /^[A-Za-z0-9_-]{1,100}$/;

function decodeBase64Url(segment: string): string | undefined {
  try {
    const base64 = segment.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

function appIdOf(json: string | undefined): string | undefined {
  if (json === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== "object" || value === null || !("appId" in value)) return undefined;
    const { appId } = value;
    return typeof appId === "string" && appIdPattern.test(appId) ? appId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The appId the sign-in started with. `state` is base64url JSON carrying it,
 * possibly as one dot-separated segment beside a random or signed part; every
 * segment is tried and anything unreadable simply yields no appId.
 */
export function appIdFromState(state: string | null): string | undefined {
  if (!state) return undefined;
  for (const segment of state.split(".")) {
    const appId = appIdOf(decodeBase64Url(segment));
    if (appId !== undefined) return appId;
  }
  return undefined;
}
