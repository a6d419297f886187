import { waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { appIdFromState } from "@/features/google/api/decode-state.ts";
import { browser } from "@/lib/browser.ts";
import { mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("the Google callback page", () => {
  it("hands code and state to the server and goes to the apps with the appId from state", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const state = base64url({ appId: "app-42", n: "nonce" });
    const spy = mockFetch({ "GET /google/auth": () => new Response(null, { status: 204 }) });
    renderApp(`/google-auth?code=abc&state=${state}`);
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/apps?appId=app-42"));
    const url = new URL(String(spy.mock.calls.find(([u]) => String(u).startsWith("/google/auth"))?.[0]), "http://x");
    expect(url.searchParams.get("code")).toBe("abc");
    expect(url.searchParams.get("state")).toBe(state);
  });

  it("returns to the login with google_auth_error when the server refuses", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({ "GET /google/auth": () => new Response("{}", { status: 401 }) });
    renderApp("/google-auth?code=abc&state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/?google_auth_error=true"));
  });

  it("makes no call without a code and reports the error", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const spy = mockFetch({});
    renderApp("/google-auth?state=x");
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/uk/?google_auth_error=true"));
    expect(spy.mock.calls.some(([url]) => String(url).startsWith("/google/auth"))).toBe(false);
  });
});

describe("reading appId from state", () => {
  it("accepts base64url JSON, alone or as one dot-separated segment", () => {
    expect(appIdFromState(base64url({ appId: "a-1" }))).toBe("a-1");
    expect(appIdFromState(`sig.${base64url({ appId: "a-2" })}`)).toBe("a-2");
  });

  it("ignores anything unreadable or unsafe", () => {
    expect(appIdFromState(null)).toBeUndefined();
    expect(appIdFromState("%%%")).toBeUndefined();
    expect(appIdFromState(base64url({ n: 1 }))).toBeUndefined();
    expect(appIdFromState(base64url({ appId: "../evil?x=1" }))).toBeUndefined();
  });
});
