import type { AccountMethods, PasskeyList, SecondFactorStatus } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ReauthDialog } from "./reauth-dialog.tsx";

const methods: AccountMethods = {
  username: "o.kovalenko",
  password: true,
  google: { linked: false, available: false },
  diia: { usable: false },
};
const onePasskey: PasskeyList = {
  passkeys: [
    {
      id: "6f1c2a4e-5b7d-4c8e-9f0a-1b2c3d4e5f60",
      name: "Ноутбук",
      authenticator: null,
      synced: false,
      createdAt: "2026-03-01T09:00:00Z",
      lastUsedAt: null,
    },
  ],
};
const status = (totp: boolean): SecondFactorStatus => ({ totp, recoveryCodesLeft: totp ? 10 : 0, required: false });
const secondFactorAsked = new ApiError("refused", 403, "auth.reauth_second_factor_required");

function renderDialog(totp: boolean, reason?: unknown) {
  mockFetch({
    "GET /api/account/methods": () => json(methods),
    "GET /api/account/passkeys": () => json(onePasskey),
    "GET /api/account/second-factor": () => json(status(totp)),
  });
  renderWithProviders(<ReauthDialog open reason={reason} onClose={vi.fn()} onConfirmed={vi.fn()} />);
}

/** The account page's "confirm it is you" dialog when the server wants the second factor (issue 35). */
describe("the confirm-it-is-you dialog", () => {
  // jsdom has no WebAuthn; the dialog offers a passkey only where the browser has it.
  beforeEach(() => vi.stubGlobal("PublicKeyCredential", () => undefined));
  afterEach(() => vi.unstubAllGlobals());

  it("asked for the second factor, a person with only a passkey is offered the passkey and no password", async () => {
    renderDialog(false, secondFactorAsked);
    expect(await screen.findByTestId("reauth-second-factor")).toHaveTextContent("другим фактором");
    expect(await screen.findByTestId("reauth-passkey")).toBeVisible();
    expect(screen.queryByLabelText("Пароль")).toBeNull();
  });

  it("asked for the second factor, a person with an authenticator app may give the password (then the code)", async () => {
    renderDialog(true, secondFactorAsked);
    expect(await screen.findByLabelText("Пароль")).toBeVisible();
    expect(await screen.findByTestId("reauth-passkey")).toBeVisible();
  });

  it("asked only for a recent sign-in, the password is enough and nothing is said of a second factor", async () => {
    renderDialog(false);
    expect(await screen.findByLabelText("Пароль")).toBeVisible();
    expect(screen.queryByTestId("reauth-second-factor")).toBeNull();
  });
});
