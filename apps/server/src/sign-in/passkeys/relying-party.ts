import type { Config } from "../../platform/config/index.ts";
import { loadOnce } from "../../platform/load-once.ts";

/** @simplewebauthn/server, loaded at the first passkey ceremony rather than at start-up (issue 41). */
export const loadWebAuthn = loadOnce(() => import("@simplewebauthn/server"));

/** The relying party is KPI ID at PUBLIC_URL: its host is the RP id, its origin the only one accepted. */
export function relyingParty(config: Config): { id: string; origin: string; name: string } {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: "KPI ID" };
}

/** How long the browser is asked to wait for the person (ms); the challenge lives a little longer. */
export const CEREMONY_TIMEOUT_MS = 120_000;

/**
 * The WebAuthn user handle: the person's id as its 16 bytes. Not their username or name, which the
 * handle must not carry; discoverable credentials answer it, so a sign-in can check the owner.
 */
export function userHandleBytes(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll("-", ""), "hex"));
}

export function userHandleOf(userId: string): string {
  return Buffer.from(userHandleBytes(userId)).toString("base64url");
}
