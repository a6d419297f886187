import { bankIdErrorReasons } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { bankIdRefusalTitles } from "../../../test/bankid-refusal-titles.ts";
import { apiError, json, mockFetch, publicSettings, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

const withBankId = () => json({ ...publicSettings, bankIdEnabled: true });

/** Issue 38: a BankID sign-in that came back without a session says why and what to do, like Google's. */
describe("a refused BankID sign-in on the login screen", () => {
  it("tells a person the university does not know to ask the dean's office or HR, with a link to help", async () => {
    mockFetch({ "GET /user": unauthorized, "GET /api/settings": withBankId });
    const { router } = renderApp("/en/?bankid_auth_error=no_account");
    const alert = await screen.findByTestId("bankid-error");
    expect(alert).toHaveAttribute("role", "alert");
    expect(alert).toHaveTextContent("The university has no one with the details your bank sent");
    expect(alert).toHaveTextContent("dean's office or HR department");
    expect(screen.getByRole("link", { name: "Help and contacts" })).toHaveAttribute("href", "/en/faq");
    // Read once: a reload does not show it again.
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("says in Ukrainian that the person cancelled at the bank", async () => {
    mockFetch({ "GET /user": unauthorized, "GET /api/settings": withBankId });
    renderApp("/uk/?bankid_auth_error=cancelled");
    const alert = await screen.findByTestId("bankid-error");
    expect(alert).toHaveTextContent("Вхід через BankID скасовано");
    expect(alert).toHaveTextContent("Увійдіть ще раз або оберіть інший спосіб");
  });

  it("words an unknown reason as the general failure", async () => {
    mockFetch({ "GET /user": unauthorized, "GET /api/settings": withBankId });
    renderApp("/en/?bankid_auth_error=%3Cscript%3E");
    expect(await screen.findByTestId("bankid-error")).toHaveTextContent("BankID sign-in did not complete");
  });

  // Each reason's title, as the browser walk through the BankID stand-in read it for every refusing persona in both
  // languages before issue 75 kept one of them there (e2e/specs/bankid.spec.ts); the server's test proves each
  // persona's reason (apps/server/test/sign-in/bankid/bankid.test.ts).
  it.each(bankIdErrorReasons)("words %s in both languages with a help link, never the code", async (reason) => {
    for (const language of ["en", "uk"] as const) {
      mockFetch({ "GET /user": unauthorized, "GET /api/settings": withBankId });
      const { unmount } = renderApp(`/${language}/?bankid_auth_error=${reason}`);
      const alert = await screen.findByTestId("bankid-error");
      expect(alert).toHaveTextContent(bankIdRefusalTitles[language][reason]);
      expect(alert.textContent).not.toContain("bankIdError");
      expect(alert.querySelector(`a[href="/${language}/faq"]`)).not.toBeNull();
      unmount();
    }
  });

  it("goes away on the next password attempt", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId,
      "POST /api/auth": () => apiError("auth.invalid_credentials"),
    });
    renderApp("/en/?bankid_auth_error=expired");
    const user = userEvent.setup();
    expect(await screen.findByTestId("bankid-error")).toHaveTextContent("The BankID sign-in took too long");
    await user.type(screen.getByLabelText("Username"), "student");
    await user.type(screen.getByLabelText("Password"), "x");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(screen.queryByTestId("bankid-error")).toBeNull());
  });

  it("names BankID among the strong ways when an application asks for a second factor", async () => {
    mockFetch({ "GET /user": () => json(student), "GET /api/settings": withBankId });
    renderApp("/en/?reauth=1&mfa=1");
    const hint = await screen.findByTestId("mfa-required");
    await waitFor(() => expect(hint).toHaveTextContent("with Diia or with BankID. Google alone is not enough."));
  });

  it("lists BankID among what still works for a locked-out person", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId,
      "POST /api/auth": () => apiError("auth.too_many_attempts", { "Retry-After": "900" }),
    });
    renderApp("/uk/");
    const user = userEvent.setup();
    await screen.findByTestId("bankid-login");
    await user.type(screen.getByLabelText("Логін"), "student");
    await user.type(screen.getByLabelText("Пароль"), "x");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    expect(await screen.findByTestId("locked-out-help")).toHaveTextContent("Увійти через BankID (кнопка нижче)");
  });
});
