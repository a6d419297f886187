import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { json, mockFetch, publicSettings, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

const token = "t".repeat(43);
const view = () => json({ fullName: "Jane Visitor", sponsor: "Staff Sponsor", endsAt: "2026-12-01T00:00:00.000Z" });

/** Issue 78: a Ukrainian guest accepts the invitation with BankID instead of a password. */
describe("accepting a guest invitation with BankID", () => {
  it("offers BankID beside the password in both languages, and sends the link and address to the bank", async () => {
    for (const [language, name] of [
      ["uk", "Прийняти через BankID"],
      ["en", "Accept with BankID"],
    ] as const) {
      const fetchSpy = mockFetch({
        "GET /user": unauthorized,
        "GET /api/settings": () => json({ ...publicSettings, bankIdEnabled: true }),
        "POST /api/guests/invitation": view,
        "POST /api/guests/accept/bankid": () => json({ url: "https://bankid.example/authorize?state=x" }),
      });
      const { unmount } = renderApp(`/${language}/guest#token=${token}`);
      const button = await screen.findByRole("button", { name });
      expect(button).toBeDisabled();
      const user = userEvent.setup();
      await user.type(screen.getByLabelText(/invitation came to|прийшло запрошення/), "jane@example.org");
      const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
      await user.click(button);
      await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("https://bankid.example/authorize?state=x"));
      const call = fetchSpy.mock.calls.find(([input]) => String(input).endsWith("/api/guests/accept/bankid"));
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ token, email: "jane@example.org" });
      assign.mockRestore();
      unmount();
    }
  });

  it("is not offered where BankID is off", async () => {
    mockFetch({ "GET /user": unauthorized, "POST /api/guests/invitation": view });
    renderApp(`/en/guest#token=${token}`);
    await screen.findByRole("button", { name: "Accept and continue" });
    expect(screen.queryByRole("button", { name: "Accept with BankID" })).toBeNull();
  });
});

describe("a BankID acceptance that came back refused", () => {
  it("says why, in both languages", async () => {
    for (const [language, words] of [
      ["uk", "Ваша державна особа вже має обліковий запис KPI ID"],
      ["en", "Your state identity is already someone's KPI ID account"],
    ] as const) {
      mockFetch({ "GET /user": unauthorized });
      const { unmount } = renderApp(`/${language}/guest?bankid_auth_error=identity_linked`);
      expect(await screen.findByTestId("guest-bankid-refused")).toHaveTextContent(words);
      unmount();
    }
  });
});
