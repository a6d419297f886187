import { googleErrorReasons } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

/** Issue 37: a refused Google sign-in says why and whom to ask, in an alert that stays, like Diia's. */
describe("a refused Google sign-in on the login screen", () => {
  it("tells a person Google does not know to sign in another way and link it, with a link to help", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/?google_auth_error=no_account");
    const alert = await screen.findByTestId("google-error");
    expect(alert).toHaveAttribute("role", "alert");
    expect(alert).toHaveTextContent("This Google account is not linked to KPI ID");
    expect(alert).toHaveTextContent("ask the helpdesk to link it");
    expect(screen.getByRole("link", { name: "Help and contacts" })).toHaveAttribute("href", "/en/faq");
  });

  it("says in Ukrainian that a disabled account is turned back on by the helpdesk, dean's office or HR", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/?google_auth_error=account_disabled");
    const alert = await screen.findByTestId("google-error");
    expect(alert).toHaveTextContent("Ваш обліковий запис KPI ID вимкнено");
    expect(alert).toHaveTextContent("деканату або відділу кадрів");
    expect(screen.getByRole("link", { name: "Довідка та контакти" })).toHaveAttribute("href", "/uk/faq");
  });

  it.each(googleErrorReasons)("words %s in both languages with a help link, never the code", async (reason) => {
    for (const language of ["en", "uk"]) {
      mockFetch({ "GET /user": unauthorized });
      const { unmount } = renderApp(`/${language}/?google_auth_error=${reason}`);
      const alert = await screen.findByTestId("google-error");
      expect(alert.textContent).not.toContain("googleError");
      expect(alert.querySelector(`a[href="/${language}/faq"]`)).not.toBeNull();
      unmount();
    }
  });
});
