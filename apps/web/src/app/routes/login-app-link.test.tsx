import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { json, mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

const appId = "6c6fcecd-eb70-443b-a762-0f0037a090be";
const link = new URLSearchParams({ appId, state: "a b&c=d", redirectUri: "https://lib.example.edu/cb?x=1" });

/** Issue 19: the application's sign-in link (appId, state, redirectUri) goes through every sign-in method. */
describe("an application's sign-in link on the sign-in page", () => {
  it("is kept, whole, by the Diia and Google ways in, and nothing else of the address is", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/app-link": () => json({ known: true, redirectUriRegistered: true }),
    });
    renderApp(`/en/?${link}&x=1`);
    const diia = await screen.findByTestId("diia-login");
    const google = await screen.findByTestId("google-login");
    for (const href of [diia.getAttribute("href"), google.getAttribute("href")]) {
      const kept = new URL(href ?? "", "http://x");
      expect(Object.fromEntries(kept.searchParams)).toEqual(Object.fromEntries(link));
    }
    expect(screen.queryByTestId("app-link-error")).toBeNull();
  });

  it("says before sign-in that the application is unknown, or that its return address is not registered", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/app-link": () => json({ known: false, redirectUriRegistered: false }),
    });
    renderApp(`/en/?${link}`);
    expect(await screen.findByTestId("app-link-error")).toHaveTextContent("Unknown service");
  });

  it("names the unregistered return address in Ukrainian too", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/app-link": () => json({ known: true, redirectUriRegistered: false }),
    });
    renderApp(`/uk/?${link}`);
    expect(await screen.findByTestId("app-link-error")).toHaveTextContent("Незареєстрована адреса повернення");
  });

  it("takes a signed-in person on to the application with its state and return address", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    const target = student.applications[1]?.id ?? "";
    mockFetch({ "GET /user": () => json(student) });
    const own = new URLSearchParams({ appId: target, state: "a b&c=d", redirectUri: "https://lib.example.edu/cb?x=1" });
    renderApp(`/uk/apps?${own}`);
    await waitFor(() => expect(replace).toHaveBeenCalledWith(`/api/app-redirect?${own}`));
  });
});
