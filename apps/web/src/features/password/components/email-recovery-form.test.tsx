import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { EmailRecoveryForm } from "./email-recovery-form.tsx";

// Issue 37: the form checks the address in the page's language; the browser's own bubble would not.
describe("the e-mail recovery form", () => {
  it("asks in Ukrainian for a whole address and sends nothing until it has one", async () => {
    const calls = mockFetch({ "POST /api/recovery/email": () => json({ accepted: true }) });
    renderWithProviders(<EmailRecoveryForm />);
    const user = userEvent.setup();
    const field = await screen.findByLabelText("Адреса електронної пошти");
    await user.type(field, "olena.kovalenko");
    await user.click(screen.getByRole("button", { name: /Надіслати/ }));
    expect(await screen.findByTestId("recovery-email-invalid")).toHaveTextContent("Введіть повну адресу e-mail");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveFocus();
    expect(calls.mock.calls.some(([url]) => String(url).includes("/api/recovery/email"))).toBe(false);
    await user.type(field, "@kpi.ua");
    expect(screen.queryByTestId("recovery-email-invalid")).not.toBeInTheDocument();
  });
});
