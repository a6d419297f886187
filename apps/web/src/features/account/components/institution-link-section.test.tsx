import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, publicSettings } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { InstitutionLinkSection } from "./institution-link-section.tsx";

const home = {
  entityId: "https://idp.home.example.org/",
  en: "Home University",
  uk: "Домашній університет",
  domains: [],
};

function renderSection(institutionsEnabled: boolean, path = "/uk/account") {
  const fetchSpy = mockFetch({
    "GET /api/settings": () => json({ ...publicSettings, institutionsEnabled }),
    "GET /api/institutions": () => json({ institutions: [home] }),
    "POST /api/institution/start": () => json({ redirect: "https://idp.home.example.org/sso?SAMLRequest=x" }),
  });
  renderWithProviders(<InstitutionLinkSection />, path);
  return fetchSpy;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Issue 78: a person with a KPI ID account links their home institution's identity from the account page. */
describe("linking a home institution on the account page", () => {
  it("starts a link (not a sign-in) at the institution chosen, and sends the browser there", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const fetchSpy = renderSection(true);
    fireEvent.click(await screen.findByTestId("institution-link-start"));
    fireEvent.click(await screen.findByRole("button", { name: /Домашній університет/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://idp.home.example.org/sso?SAMLRequest=x"));
    const start = fetchSpy.mock.calls.find(([input]) => String(input).includes("/api/institution/start"));
    expect(JSON.parse(String(start?.[1]?.body))).toEqual({ entityId: home.entityId, purpose: "link" });
  });

  it("says the link is made when the institution's answer came back", async () => {
    renderSection(true, "/uk/account?linked=institution");
    expect(await screen.findByTestId("institution-link-outcome")).toHaveTextContent(
      "Прив’язано: тепер ви можете входити до KPI ID через свій заклад.",
    );
  });

  it("is not shown where visitors are not allowed", async () => {
    const fetchSpy = renderSection(false);
    await waitFor(() => expect(fetchSpy).toHaveBeenCalled());
    expect(screen.queryByTestId("institution-link-start")).toBeNull();
  });
});
