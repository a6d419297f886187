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
 * undefined when the browser cannot do that. Otherwise the browser asks at once (the button), and a
 * pending autofill request is aborted first: a page may wait on one WebAuthn request at a time.
 */
export async function passkeySignIn(autofill: boolean): Promise<string | undefined> {
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return undefined;
  if (!autofill) WebAuthnAbortService.cancelCeremony();
  const { options } = await apiJson(
    "/api/auth/passkey/options",
    { method: "POST", body: {}, failure: "Failed to start a passkey sign-in" },
    ownAnswer<PasskeyOptions>(),
  );
  const response = await startAuthentication({
    // The server built these with @simplewebauthn/server: the shape this function takes.
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
  const { next } = await apiJson(
    "/api/auth/passkey",
    { method: "POST", body: { response }, failure: "Failed to sign in with a passkey" },
    ownAnswer<InternalAuthResponse>(),
  );
  return next;
}

/** Ends a pending autofill request (the login screen is leaving). */
export function cancelPasskeyRequest(): void {
  WebAuthnAbortService.cancelCeremony();
}
