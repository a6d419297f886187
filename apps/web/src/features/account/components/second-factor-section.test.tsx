import type { SecondFactorStatus, TotpConfirmResponse, TotpSetup } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { SecondFactorSection } from "./second-factor-section.tsx";

const required: SecondFactorStatus = { totp: false, recoveryCodesLeft: 0, required: true };
const setup: TotpSetup = { secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/KPI%20ID:walker?secret=JBSWY3DPEHPK3PXP" };
const codes = Array.from({ length: 10 }, (_, index) => `K7M2Q-9XH${index}4`);
const appId = "6c6fcecd-eb70-443b-a762-0f0037a090be";

/** Set-up from the card: start, type the phone's code, turn on. */
async function setUpWith(answer: TotpConfirmResponse, path: string) {
  mockFetch({
    "GET /api/account/second-factor": () => json(required),
    "POST /api/account/totp": () => json(setup),
    "POST /api/account/totp/confirm": () => json(answer),
  });
  renderWithProviders(<SecondFactorSection askAgain={() => undefined} />, path);
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Налаштувати застосунок-автентифікатор" }));
  await user.type(await screen.findByLabelText("Код, який зараз показує застосунок"), "123456");
  await user.click(screen.getByRole("button", { name: "Увімкнути" }));
  await screen.findByTestId("recovery-codes");
  return user;
}

// Issue 17: a person led here to set a factor up goes on to what their sign-in was for, after the codes.
describe("the second-factor card after a sign-in led the person to it", () => {
  afterEach(() => vi.restoreAllMocks());

  it("goes on where the server says once the codes are saved", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const user = await setUpWith({ recoveryCodes: codes, next: "/api/oidc/interaction/abc" }, "/uk/account");
    expect(screen.getByText("Після цього ви продовжите вхід до застосунку, який вас сюди привів.")).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Я їх зберіг(ла), продовжити" }));
    expect(assign).toHaveBeenCalledWith("/api/oidc/interaction/abc");
  });

  it("takes the application's sign-in link the sign-in screen brought along to the apps page", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const link = new URLSearchParams({ appId, state: "s 1", redirectUri: "https://lib.example.edu/cb" });
    const user = await setUpWith({ recoveryCodes: codes }, `/uk/account?${link}&other=x`);
    await user.click(screen.getByRole("button", { name: "Я їх зберіг(ла), продовжити" }));
    expect(assign).toHaveBeenCalledWith(`/uk/apps?${link}`);
  });

  it("stays on the account page when nothing waits", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const user = await setUpWith({ recoveryCodes: codes }, "/uk/account");
    await user.click(screen.getByRole("button", { name: "Я їх зберіг(ла)" }));
    expect(assign).not.toHaveBeenCalled();
    expect(screen.queryByTestId("recovery-codes")).toBeNull();
  });
});
