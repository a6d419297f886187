import type { AccountMethods } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch, publicSettings } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { MethodsSection } from "./methods-section.tsx";

const methods = (taxIdKnown: boolean): AccountMethods => ({
  username: "o.kovalenko",
  password: true,
  google: { linked: false, available: true },
  diia: { usable: taxIdKnown },
});

function renderMethods(bankIdEnabled: boolean, taxIdKnown: boolean) {
  mockFetch({
    "GET /api/account/methods": () => json(methods(taxIdKnown)),
    "GET /api/settings": () => json({ ...publicSettings, bankIdEnabled }),
  });
  renderWithProviders(<MethodsSection askAgain={vi.fn()} fullName="Олена Коваленко" />);
}

/** Issue 38: the account page's ways to sign in name BankID where the deployment has it. */
describe("BankID among the ways to sign in", () => {
  it("says a person whose tax number is known can sign in with BankID", async () => {
    renderMethods(true, true);
    const row = await screen.findByTestId("method-bankid");
    expect(row).toHaveTextContent("BankID");
    expect(row).toHaveTextContent("Ви можете входити через BankID: ваш РНОКПП відомий.");
  });

  it("says without a tax number BankID looks for a document, and whom to ask", async () => {
    await initTestI18n("en");
    renderMethods(true, false);
    const row = await screen.findByTestId("method-bankid");
    expect(row).toHaveTextContent("or without one by the passport or ID card on your university record");
    expect(row).toHaveTextContent("ask your dean's office or HR to add your taxpayer number");
  });

  it("is not listed where the deployment has no BankID", async () => {
    renderMethods(false, true);
    expect(await screen.findByTestId("method-diia")).toBeInTheDocument();
    expect(screen.queryByTestId("method-bankid")).toBeNull();
  });
});
