import type { ChangePasswordRequest } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { PasswordForm } from "./password-form.tsx";

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as ChangePasswordRequest;

function renderForm(hasPassword: boolean, askAgain = vi.fn()) {
  const onClose = vi.fn();
  renderWithProviders(
    <PasswordForm
      hasPassword={hasPassword}
      username="o.kovalenko"
      contextWords={["o.kovalenko", "Олена", "Коваленко"]}
      askAgain={askAgain}
      onClose={onClose}
    />,
  );
  return { onClose, askAgain, user: userEvent.setup() };
}

describe("the account page's password form", () => {
  it("sets a first password without asking for a current one, and closes", async () => {
    const sent: ChangePasswordRequest[] = [];
    mockFetch({
      "POST /api/account/password": (_url, init) => {
        sent.push(bodyOf(init));
        return json({ endedSessions: 0 });
      },
    });
    const { onClose, user } = renderForm(false);
    expect(screen.queryByLabelText("Поточний пароль")).toBeNull();
    await user.type(screen.getByLabelText("Новий пароль"), "violet harbour lantern");
    await user.click(screen.getByRole("button", { name: "Встановити пароль" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ newPassword: "violet harbour lantern" }]);
  });

  it("setting a first password after a stale sign-in asks the person to prove it again; the retry sends the same change", async () => {
    // (A person with a password is not asked twice: the current password is the server's re-check.)
    const sent: ChangePasswordRequest[] = [];
    mockFetch({
      "POST /api/account/password": (_url, init) => {
        sent.push(bodyOf(init));
        return sent.length === 1 ? apiError("auth.reauth_required") : json({ endedSessions: 2 });
      },
    });
    const { askAgain, onClose, user } = renderForm(false);
    await user.type(screen.getByLabelText("Новий пароль"), "violet harbour lantern");
    await user.click(screen.getByRole("button", { name: "Встановити пароль" }));
    await waitFor(() => expect(askAgain).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId("password-refused")).toBeNull();
    const retry = askAgain.mock.calls[0]?.[0] as () => void;
    retry();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const change = { newPassword: "violet harbour lantern" };
    expect(sent).toEqual([change, change]);
  });

  it("a refused password says why in the form, and the form stays", async () => {
    mockFetch({ "POST /api/account/password": () => apiError("password.blocklisted") });
    const { onClose, user } = renderForm(true);
    await user.type(screen.getByLabelText("Поточний пароль"), "old password here");
    await user.type(screen.getByLabelText("Новий пароль"), "kovalenko2026");
    await user.click(screen.getByRole("button", { name: "Змінити пароль" }));
    expect(await screen.findByTestId("password-refused")).toHaveTextContent("Цей пароль легко вгадати");
    expect(onClose).not.toHaveBeenCalled();
  });

  it("the strength meter explains a weak password: its length and why it is guessable", async () => {
    mockFetch({});
    const { user } = renderForm(true);
    expect(screen.getByText(/Щонайменше 8 символів, радимо 15/)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Новий пароль"), "Коваленко1");
    const meter = await screen.findByTestId("strength-meter");
    await waitFor(() => expect(meter).toHaveTextContent("Пароль побудовано на вашому імені"));
    expect(meter).toHaveTextContent("10 символів: радимо 15 і більше");
    await user.clear(screen.getByLabelText("Новий пароль"));
    await user.type(screen.getByLabelText("Новий пароль"), "abc");
    await waitFor(() => expect(screen.getByTestId("strength-meter")).toHaveAttribute("data-score", "0"));
    expect(screen.getByTestId("strength-meter")).toHaveTextContent("3 символи: потрібно щонайменше 8");
  });
});
