import type { DeveloperApplications } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

const none: DeveloperApplications = { allowed: true, limit: 5, applications: [] };

function signedIn() {
  mockFetch({
    "GET /user": () => json(student),
    "GET /api/developers/applications": () => json(none),
    "GET /api/developers/invitations": () => json({ invitations: [], testing: [] }),
  });
}

/** Issue 60: a student finds the developers' page from the apps page and the FAQ, and the manual from both. */
describe("the ways to the developers' page", () => {
  it("links it from the apps page, and the link opens it, in English", async () => {
    signedIn();
    const { router } = renderApp("/en/apps");
    const link = await screen.findByRole("link", { name: "For developers" });
    expect(link).toHaveAttribute("href", "/en/developers");
    await userEvent.setup().click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe("/en/developers"));
    expect(await screen.findByRole("button", { name: "Register an application" })).toBeInTheDocument();
  });

  it("links it from the apps page in Ukrainian", async () => {
    signedIn();
    renderApp("/uk/apps");
    expect(await screen.findByRole("link", { name: "Розробникам" })).toHaveAttribute("href", "/uk/developers");
  });

  it("links it and the integration manual from the FAQ, in English", async () => {
    signedIn();
    renderApp("/en/faq");
    expect(await screen.findByRole("link", { name: "developers' page" })).toHaveAttribute("href", "/en/developers");
    expect(screen.getByRole("link", { name: "integration manual" })).toHaveAttribute("href", "/integration_manual.pdf");
  });

  it("links them from the FAQ in Ukrainian", async () => {
    signedIn();
    renderApp("/uk/faq");
    expect(await screen.findByRole("link", { name: "сторінці для розробників" })).toHaveAttribute(
      "href",
      "/uk/developers",
    );
    expect(screen.getByRole("link", { name: "посібнику з інтеграції" })).toHaveAttribute(
      "href",
      "/integration_manual.pdf",
    );
  });

  it("links the manual and the discovery address from the developers' page", async () => {
    signedIn();
    renderApp("/en/developers");
    const manual = await screen.findByRole("link", { name: /Integration manual \(PDF\)/ });
    expect(manual).toHaveAttribute("href", "/integration_manual.pdf");
    const discovery = `${window.location.origin}/oidc/.well-known/openid-configuration`;
    expect(screen.getByRole("link", { name: discovery })).toHaveAttribute("href", discovery);
  });
});
