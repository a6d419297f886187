import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError } from "@/lib/api-client.ts";
import { signInMutationKey } from "./password-login.ts";

const ceremony = () => import("./passkey-ceremony.ts");

/** Whether this browser has WebAuthn at all (the button is shown only then). */
export const passkeysSupported = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/**
 * The person closed the browser's passkey prompt, or a newer request replaced this one: nothing to
 * say. (Browsers answer NotAllowedError for both a cancel and a timeout; @simplewebauthn/browser
 * names an aborted request ERROR_CEREMONY_ABORTED.)
 */
function wasCancelled(error: unknown): boolean {
  if (error instanceof ApiError || !(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  return error.name === "AbortError" || error.name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED";
}

/**
 * Passkey sign-in on the login screen: the username field's autofill waits from the start (and again
 * after the button's attempt), and `button` asks at once, aborting the waiting autofill request.
 * `error`: a refusal worth telling (a server's code or a browser failure), not a cancel.
 */
export function usePasskeySignIn(onSignedIn: (next: string) => Promise<void> | void) {
  const [round, setRound] = useState(0);
  const [autofillError, setAutofillError] = useState<unknown>();
  const button = useMutation({
    mutationKey: signInMutationKey,
    mutationFn: async () => (await ceremony()).passkeySignIn(false),
    onSuccess: (next) => (next ? onSignedIn(next) : undefined),
    // After a failed or cancelled attempt the autofill waits again; after a good one the page leaves.
    onError: () => setRound((value) => value + 1),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new round restarts the autofill request on purpose.
  useEffect(() => {
    if (!passkeysSupported()) return;
    let active = true;
    ceremony()
      .then((module) => module.passkeySignIn(true))
      .then((next) => (active && next ? onSignedIn(next) : undefined))
      .catch((error: unknown) => {
        if (active && !wasCancelled(error)) setAutofillError(error);
      });
    return () => {
      active = false;
      void ceremony().then((module) => module.cancelPasskeyRequest());
    };
  }, [round]);

  const buttonError = button.isError && !wasCancelled(button.error) ? button.error : undefined;
  return {
    start: () => {
      setAutofillError(undefined);
      button.mutate();
    },
    pending: button.isPending,
    error: buttonError ?? autofillError,
    reset: () => {
      setAutofillError(undefined);
      button.reset();
    },
  };
}
