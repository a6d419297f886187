import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

describe("the BankID return page", () => {
  it("hands code and state to the server as a page load, calls nothing itself and says what it does", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const spy = mockFetch({});
    renderApp("/en/bankid-auth?code=abc&state=opaque-state&extra=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/bankid/auth?code=abc&state=opaque-state&lang=en"));
    expect(replace).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls.some(([url]) => String(url).includes("bankid/auth"))).toBe(false);
    // The status's words go in just after it enters the page (live-status.tsx), so that a screen reader reads them.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Finishing BankID sign-in…"));
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Finishing BankID sign-in…");
  });

  it("says in Ukrainian what it does", async () => {
    vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/uk/bankid-auth?code=abc&state=s");
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Завершуємо вхід через BankID…"));
  });

  it("hands a cancelled consent to the server too, which knows from the state where to show it", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/en/bankid-auth?error=access_denied&error_description=User%20cancelled&state=x");
    await waitFor(() =>
      expect(replace).toHaveBeenCalledWith(
        "/bankid/auth?state=x&error=access_denied&error_description=User+cancelled&lang=en",
      ),
    );
  });

  it("returns to the login with the general alert for an answer with neither code nor error", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({});
    renderApp("/en/bankid-auth?state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/en/?bankid_auth_error=failed"));
  });
});
