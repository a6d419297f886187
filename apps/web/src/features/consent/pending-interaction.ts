// An application's OpenID Connect sign-in sends the browser to the sign-in
// screen as /{lang}/?oidc={uid}. Whichever way the person then signs in
// (password, Diia, Google — some of which leave the page), the browser must
// go back to the interaction. The uid is kept in sessionStorage for a few
// minutes; the gates resume it once someone is signed in.

const storageKey = "kpi-id.oidc-interaction";
const uidPattern = /^[A-Za-z0-9_-]{1,64}$/;
// Shorter than the server's interaction lifetime, so a stale one is never resumed.
const maxAgeMs = 10 * 60 * 1000;

interface Stored {
  uid: string;
  at: number;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Remembers ?oidc= from the sign-in screen's address. */
export function rememberInteraction(search: string): void {
  const uid = uidFromSearch(search);
  if (uid) storage()?.setItem(storageKey, JSON.stringify({ uid, at: Date.now() }));
}

function uidFromSearch(search: string): string | undefined {
  const uid = new URLSearchParams(search).get("oidc");
  return uid && uidPattern.test(uid) ? uid : undefined;
}

/** The interaction to go back to: ?oidc= in the address, else a recent remembered one. Reads only. */
export function readPendingInteraction(search = "", now = Date.now()): string | undefined {
  const fromAddress = uidFromSearch(search);
  if (fromAddress) return fromAddress;
  const raw = storage()?.getItem(storageKey);
  if (!raw) return undefined;
  try {
    const { uid, at } = JSON.parse(raw) as Stored;
    return typeof uid === "string" && uidPattern.test(uid) && now - at < maxAgeMs ? uid : undefined;
  } catch {
    return undefined;
  }
}

export function clearPendingInteraction(): void {
  storage()?.removeItem(storageKey);
}

export function interactionUrl(uid: string): string {
  return `/api/oidc/interaction/${encodeURIComponent(uid)}`;
}
