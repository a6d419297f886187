import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { rememberBankIdPurpose } from "@/features/bankid/api/bankid-auth.ts";
import { browser } from "@/lib/browser.ts";
import { mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

describe("the BankID return page", () => {
  beforeEach(() => sessionStorage.clear());

  it("hands code and state to the server as a page load, calls nothing itself and says what it does", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const spy = mockFetch({});
    renderApp("/en/bankid-auth?code=abc&state=opaque-state");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/bankid/auth?code=abc&state=opaque-state"));
    expect(replace).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls.some(([url]) => String(url).includes("bankid/auth"))).toBe(false);
    expect(await screen.findByRole("status")).toHaveTextContent("Finishing BankID sign-in…");
  });

  it("says in Ukrainian what it does", async () => {
    vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/uk/bankid-auth?code=abc&state=s");
    expect(await screen.findByRole("status")).toHaveTextContent("Завершуємо вхід через BankID…");
  });

  it("returns to the login with the cancelled alert when the person refused at the bank", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/en/bankid-auth?error=access_denied&state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/en/?bankid_auth_error=cancelled"));
  });

  it("returns to the login with the general alert for any other answer without a code", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/uk/bankid-auth?error=server_error&state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/?bankid_auth_error=failed"));
  });

  it("sends a cancelled recovery back to Forgot password, once", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    rememberBankIdPurpose("recovery");
    const { unmount } = renderApp("/en/bankid-auth?error=access_denied");
    await waitFor(() =>
      expect(replace).toHaveBeenCalledWith("/en/forgot-password?via=bankid&bankid_auth_error=cancelled"),
    );
    unmount();
    // The purpose was taken: the next BankID answer is an ordinary sign-in's.
    renderApp("/en/bankid-auth?error=access_denied");
    await waitFor(() => expect(replace).toHaveBeenLastCalledWith("/en/?bankid_auth_error=cancelled"));
  });
});
