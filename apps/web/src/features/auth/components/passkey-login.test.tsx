import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiError, json, mockFetch, signedIn, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

// The browser's WebAuthn: the autofill request waits until it is aborted; the button's request answers.
const webauthn = vi.hoisted(() => {
  const calls: { autofill: boolean; aborted?: true }[] = [];
  let abortPending: (() => void) | undefined;
  return {
    calls,
    cancelCeremony: () => {
      if (abortPending) calls.push({ autofill: true, aborted: true });
      abortPending?.();
      abortPending = undefined;
    },
    startAuthentication: ({ useBrowserAutofill }: { useBrowserAutofill?: boolean }) => {
      calls.push({ autofill: Boolean(useBrowserAutofill) });
      if (!useBrowserAutofill) return Promise.resolve({ id: "credential", type: "public-key", response: {} });
      return new Promise((_, reject) => {
        abortPending = () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
      });
    },
  };
});

vi.mock("@simplewebauthn/browser", () => ({
  browserSupportsWebAuthnAutofill: async () => true,
  startAuthentication: webauthn.startAuthentication,
  WebAuthnAbortService: { cancelCeremony: webauthn.cancelCeremony },
}));

/** Its presence is what tells the login screen the browser has WebAuthn. */
class FakePublicKeyCredential {}

describe("signing in with a passkey", () => {
  beforeEach(() => {
    webauthn.calls.length = 0;
    vi.stubGlobal("PublicKeyCredential", FakePublicKeyCredential);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("offers passkeys in the username autofill; the button aborts that request and signs in", async () => {
    let isSignedIn = false;
    const fetchSpy = mockFetch({
      "GET /user": () => (isSignedIn ? json(student) : unauthorized()),
      "POST /api/auth/passkey/options": () => json({ options: { challenge: "challenge" } }),
      "POST /api/auth/passkey": () => {
        isSignedIn = true;
        return signedIn();
      },
    });
    const { router } = renderApp("/uk/");
    expect(await screen.findByLabelText("Логін")).toHaveAttribute("autocomplete", "username webauthn");
    await waitFor(() => expect(webauthn.calls).toEqual([{ autofill: true }]));

    await userEvent.setup().click(screen.getByRole("button", { name: "Увійти з ключем доступу" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/uk/apps"));
    // The waiting autofill request was aborted before the button's request started.
    expect(webauthn.calls.slice(0, 3)).toEqual([
      { autofill: true },
      { autofill: true, aborted: true },
      { autofill: false },
    ]);
    const signIns = fetchSpy.mock.calls.filter(([url]) => String(url).endsWith("/api/auth/passkey"));
    expect(signIns).toHaveLength(1);
    expect(screen.queryByTestId("passkey-error")).toBeNull();
  });

  it("says why a passkey was refused (a copied key) and stays on the login screen", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth/passkey/options": () => json({ options: { challenge: "challenge" } }),
      "POST /api/auth/passkey": () => apiError("passkey.counter_regressed"),
    });
    const { router } = renderApp("/uk/");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Увійти з ключем доступу" }));
    expect(await screen.findByTestId("passkey-error")).toHaveTextContent("скопійовано");
    expect(router.state.location.pathname).toBe("/uk/");
  });
});
