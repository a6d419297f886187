import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ResetPasswordForm } from "./reset-password-form.tsx";

const holder = { username: "o.kovalenko", fullName: "Олена Коваленко" };

function renderReset() {
  mockFetch({
    "POST /api/recovery/check": () => json(holder),
    "POST /api/recovery/reset": () => apiError("password.blocklisted"),
  });
  renderWithProviders(<ResetPasswordForm token="t-1" forgotHref="/uk/forgot-password" signInHref="/uk/" />);
  return userEvent.setup();
}

// Issue 37: what the page says about a new password is what the server will do with it.
describe("the reset page", () => {
  it("clears the server's refusal once the password is changed", async () => {
    const user = renderReset();
    const field = await screen.findByLabelText("Новий пароль");
    await user.type(field, "violet harbour lantern");
    await user.click(screen.getByRole("button", { name: "Встановити новий пароль" }));
    expect(await screen.findByTestId("password-refused")).toBeInTheDocument();
    await user.type(field, "s");
    expect(screen.queryByTestId("password-refused")).not.toBeInTheDocument();
  });

  for (const [password, why] of [
    ["password1", "він є в списку поширених паролів"],
    ["Коваленко2026!", "він складається з вашого імені"],
    ["abcabcabcabc", "він лише повторює кілька символів"],
  ] as const) {
    it(`the meter says before submitting that "${password}" will be refused, as the server would`, async () => {
      const user = renderReset();
      await user.type(await screen.findByLabelText("Новий пароль"), password);
      await waitFor(() => expect(screen.getByTestId("password-will-be-refused")).toHaveTextContent(why));
      expect(screen.getByTestId("strength-meter")).toHaveAttribute("data-score", "0");
    });
  }

  it("the meter does not flag a long passphrase the server accepts", async () => {
    const user = renderReset();
    await user.type(await screen.findByLabelText("Новий пароль"), "lanterns over podil at dusk");
    await waitFor(() => expect(screen.getByTestId("strength-meter")).not.toHaveAttribute("data-score", "0"));
    expect(screen.queryByTestId("password-will-be-refused")).not.toBeInTheDocument();
  });

  it("says it checks the link through a status that enters the page empty and gets its words after", async () => {
    // The check does not answer: the page stays on its skeleton.
    mockFetch({ "POST /api/recovery/check": () => new Promise<Response>(() => undefined) });
    renderWithProviders(<ResetPasswordForm token="t-1" forgotHref="/uk/forgot-password" signInHref="/uk/" />);
    // A status mounted with its words (or an aria-label) already in is often not read (live-status.tsx).
    const checking = screen.getByRole("status");
    expect(checking).toHaveTextContent(/^$/);
    expect(checking).toHaveAccessibleName("");
    await waitFor(() => expect(checking).toHaveTextContent("Перевіряємо посилання…"));
  });
});
