import type { ConnectedApplications } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ApplicationsSection } from "./applications-section.tsx";

const listed: ConnectedApplications = {
  applications: [
    { id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301", title: "Демо-сайт", scopes: ["openid", "profile"] },
    {
      id: "3f2504e0-4f89-41d3-9a0c-0305e82c3302",
      title: "Розклад",
      scopes: [],
      ticketData: ["identifier", "name", "recordIds", "roles", "signInMethod"],
    },
  ],
};

/** Issue 56: consents given on the ticket path are listed and revoked beside the OpenID Connect ones. */
describe("the account page's connected applications", () => {
  it("lists what an application allowed a ticket receives, and revokes it", async () => {
    let revoked: unknown;
    let applications = listed.applications;
    mockFetch({
      "GET /api/account/applications": () => json({ applications }),
      "POST /api/account/applications/revoke": (_url, init) => {
        revoked = JSON.parse(String(init.body));
        applications = applications.slice(0, 1);
        return json({ revoked: true });
      },
    });
    renderWithProviders(<ApplicationsSection askAgain={vi.fn()} />);
    const items = await screen.findAllByTestId("connected-application");
    const ticketApp = items[1] as HTMLElement;
    expect(ticketApp).toHaveTextContent("Розклад");
    expect(ticketApp).toHaveTextContent("Через квитки отримує:");
    expect(within(ticketApp).getByTestId("connected-ticket-data")).toHaveTextContent(
      "Ваш постійний ідентифікатор у KPI ID",
    );
    expect(ticketApp).not.toHaveTextContent("Може читати:");
    expect(items[0]).toHaveTextContent("Може читати:");
    await userEvent.setup().click(within(ticketApp).getByRole("button", { name: "Відкликати доступ: Розклад" }));
    await waitFor(() => expect(revoked).toEqual({ applicationId: "3f2504e0-4f89-41d3-9a0c-0305e82c3302" }));
    await waitFor(() => expect(screen.getAllByTestId("connected-application")).toHaveLength(1));
  });
});
