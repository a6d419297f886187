import { waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

describe("the Google callback page", () => {
  it("hands code and state to the server as a page load and decodes nothing itself", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const spy = mockFetch({});
    renderApp("/google-auth?code=abc&state=opaque-state&scope=openid");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/google/auth?code=abc&state=opaque-state"));
    expect(spy.mock.calls.some(([url]) => String(url).startsWith("/google/auth"))).toBe(false);
  });

  it("makes no call without a code and returns to the login with the Google alert", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    renderApp("/google-auth?state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/?google_auth_error=failed"));
  });

  it("says the person cancelled when Google answers access_denied", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    renderApp("/google-auth?error=access_denied&state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/?google_auth_error=cancelled"));
  });
});
