import { bankIdErrorReasons } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { json, mockFetch, publicSettings, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

const settings =
  (bankIdBankPicker = false) =>
  () =>
    json({ ...publicSettings, bankIdEnabled: true, bankIdBankPicker });

/** Issue 38: "Forgot password" offers BankID beside Diia and e-mail, and shows why a BankID attempt failed. */
describe("Forgot password with BankID", () => {
  it("offers BankID between Diia and e-mail, in both languages", async () => {
    for (const [language, names] of [
      ["uk", ["Через Дію", "Через BankID", "Електронною поштою"]],
      ["en", ["With Diia", "With BankID", "By e-mail"]],
    ] as const) {
      mockFetch({ "GET /user": unauthorized, "GET /api/settings": settings() });
      const { unmount } = renderApp(`/${language}/forgot-password`);
      const choices = await screen.findByRole("navigation", {
        name: language === "uk" ? "Як повернути доступ" : "How to get back in",
      });
      const links = within(choices).getAllByRole("link");
      expect(links.map((link) => names.find((name) => link.textContent?.startsWith(name)))).toEqual(names);
      expect(links[1]).toHaveAttribute("href", `/${language}/forgot-password?via=bankid`);
      unmount();
    }
  });

  it("is not offered when the deployment has no BankID", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/forgot-password");
    await screen.findByRole("link", { name: /With Diia/ });
    expect(screen.queryByRole("link", { name: /With BankID/ })).toBeNull();
  });

  it("starts BankID with purpose=recovery", async () => {
    mockFetch({ "GET /user": unauthorized, "GET /api/settings": settings() });
    renderApp("/en/forgot-password?via=bankid");
    const recovery = await screen.findByTestId("bankid-recovery");
    expect(recovery).toHaveTextContent("Once the bank confirms who you are, KPI ID asks you to set a new password.");
    const start = within(recovery).getByRole("link", { name: "Continue with BankID" });
    expect(start).toHaveAttribute("href", "/api/bankid/redirect?purpose=recovery");
  });

  it("sends purpose=recovery with the bank when the university has its own picker", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": settings(true),
      "GET /api/banks": () => json({ banks: [{ id: "privat", name: "ПриватБанк" }] }),
    });
    renderApp("/uk/forgot-password?via=bankid");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Продовжити через BankID" }));
    await user.click(await screen.findByRole("radio", { name: "ПриватБанк" }));
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    await user.click(screen.getByRole("button", { name: "Перейти до банку" }));
    expect(assign).toHaveBeenCalledWith("/api/bankid/redirect?purpose=recovery&bank=privat");
  });

  it("shows why BankID did not prove it was you, with what to do, and keeps the way to try again", async () => {
    mockFetch({ "GET /user": unauthorized, "GET /api/settings": settings() });
    const { router } = renderApp("/en/forgot-password?via=bankid&bankid_auth_error=no_account");
    const alert = await screen.findByTestId("bankid-error");
    expect(alert).toHaveAttribute("role", "alert");
    expect(alert).toHaveTextContent("The university has no one with the details your bank sent");
    expect(alert).toHaveTextContent("reset your password another way");
    expect(within(alert).getByRole("link", { name: "Help and contacts" })).toHaveAttribute("href", "/en/faq");
    expect(await screen.findByRole("link", { name: "Continue with BankID" })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe("?via=bankid"));
  });

  it.each(bankIdErrorReasons)("words %s for a recovery in both languages, never the key", async (reason) => {
    for (const language of ["en", "uk"]) {
      mockFetch({ "GET /user": unauthorized, "GET /api/settings": settings() });
      const { unmount } = renderApp(`/${language}/forgot-password?via=bankid&bankid_auth_error=${reason}`);
      const alert = await screen.findByTestId("bankid-error");
      expect(alert.textContent).not.toContain("bankIdError");
      expect(alert.querySelector(`a[href="/${language}/faq"]`)).not.toBeNull();
      unmount();
    }
  });
});
