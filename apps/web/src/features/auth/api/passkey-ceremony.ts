import type { InternalAuthResponse, PasskeyOptions } from "@kpi-id/contracts";
import {
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

// Loaded only when the login screen asks a passkey (autofill once the page is up, or the button):
// @simplewebauthn/browser stays out of the login route's first load.

/**
 * Signs in with a passkey and answers where the browser goes next. `autofill`: the username field
 * offers the person's passkeys (conditional mediation) and this waits until one is picked; answers
 * undefined when the browser cannot do that or the request fails before a pick. Otherwise the browser asks at once (the button), and a
 * pending autofill request is aborted first: a page may wait on one WebAuthn request at a time.
 */
export async function passkeySignIn(autofill: boolean): Promise<string | undefined> {
  if (!autofill) WebAuthnAbortService.cancelCeremony();
  const response = autofill ? await pickedFromAutofill() : await askForPasskey(false);
  if (!response) return undefined;
  // From here the person chose a passkey (the button, or one picked from the autofill list): a refusal is theirs to see.
  const { next } = await apiJson(
    "/api/auth/passkey",
    { method: "POST", body: { response }, failure: "Failed to sign in with a passkey" },
    ownAnswer<InternalAuthResponse>(),
  );
  return next;
}

/** The options from the server, then the browser's passkey prompt (or its autofill list) answered. */
async function askForPasskey(autofill: boolean) {
  const { options } = await apiJson(
    "/api/auth/passkey/options",
    { method: "POST", body: {}, failure: "Failed to start a passkey sign-in" },
    ownAnswer<PasskeyOptions>(),
  );
  return startAuthentication({
    // The server built these with @simplewebauthn/server: the shape this function takes.
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
}

/**
 * The background autofill request nobody asked for: until the person picks a passkey, its failures (no platform
 * authenticator, a private window, a bare-IP address, the options call refused) are no one's doing, so they are
 * logged and the page stays quiet (issue 35); answers undefined then.
 */
async function pickedFromAutofill() {
  try {
    if (!(await browserSupportsWebAuthnAutofill())) return undefined;
    return await askForPasskey(true);
  } catch (error) {
    console.info("passkey autofill unavailable:", error instanceof Error ? error.name : error);
    return undefined;
  }
}

/** Ends a pending autofill request (the login screen is leaving). */
export function cancelPasskeyRequest(): void {
  WebAuthnAbortService.cancelCeremony();
}
