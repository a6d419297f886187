import type { SecondFactorStatus, TotpConfirmResponse, TotpSetup } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
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

// Issue 37: what cannot be undone asks first, in the console's dialog.
describe("the second-factor card's changes that cannot be undone", () => {
  const on: SecondFactorStatus = { totp: true, recoveryCodesLeft: 7, required: false };

  function renderOn() {
    const sent: string[] = [];
    mockFetch({
      "GET /api/account/second-factor": () => json(on),
      "POST /api/account/totp/remove": () => {
        sent.push("remove");
        return json({ ok: true });
      },
      "POST /api/account/recovery-codes": () => {
        sent.push("codes");
        return json({ recoveryCodes: codes });
      },
    });
    renderWithProviders(<SecondFactorSection askAgain={() => undefined} />, "/uk/account");
    return { sent, user: userEvent.setup() };
  }

  it("turning it off asks first; Cancel changes nothing, the dialog's button turns it off", async () => {
    const { sent, user } = renderOn();
    await user.click(await screen.findByRole("button", { name: "Вимкнути" }));
    const dialog = await screen.findByRole("dialog", { name: "Вимкнути другий фактор?" });
    expect(dialog).toHaveTextContent("резервні коди перестануть діяти");
    await user.click(within(dialog).getByRole("button", { name: "Скасувати" }));
    expect(sent).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Вимкнути" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Вимкнути" }));
    await waitFor(() => expect(sent).toEqual(["remove"]));
  });

  it("new recovery codes ask first, saying the old ones stop working", async () => {
    const { sent, user } = renderOn();
    await user.click(await screen.findByRole("button", { name: "Нові резервні коди" }));
    const dialog = await screen.findByRole("dialog", { name: "Створити нові резервні коди?" });
    expect(dialog).toHaveTextContent("Старі резервні коди одразу перестануть діяти");
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Нові резервні коди" }));
    await waitFor(() => expect(sent).toEqual(["codes"]));
  });
});

// Issue 37: setting the app up on the phone that holds it, where a QR code cannot be scanned.
describe("the set-up on a phone", () => {
  afterEach(() => vi.restoreAllMocks());

  it("offers the otpauth link that opens the authenticator app, and copies the key", async () => {
    vi.spyOn(window, "matchMedia").mockImplementation(
      (query: string) =>
        ({
          matches: query.includes("max-width"),
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    const written = vi.spyOn(navigator.clipboard, "writeText");
    mockFetch({
      "GET /api/account/second-factor": () => json(required),
      "POST /api/account/totp": () => json(setup),
    });
    renderWithProviders(<SecondFactorSection askAgain={() => undefined} />, "/uk/account");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Налаштувати застосунок-автентифікатор" }));
    const open = await screen.findByRole("link", { name: "Відкрити в застосунку-автентифікаторі на цьому телефоні" });
    expect(open).toHaveAttribute("href", setup.uri);
    await user.click(screen.getByRole("button", { name: "Копіювати ключ" }));
    await waitFor(() => expect(written).toHaveBeenCalledWith(setup.secret));
  });
});
