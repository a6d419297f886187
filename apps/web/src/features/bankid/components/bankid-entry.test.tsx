import type { BanksResponse } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { json, mockFetch, publicSettings, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const banks: BanksResponse = {
  banks: [
    { id: "privat", name: "ПриватБанк", logoUrl: "http://localhost:3305/logos/privat.svg" },
    { id: "mono", name: "monobank" },
    { id: "oschad", name: "Ощадбанк", logoUrl: "http://localhost:3305/logos/oschad.svg" },
  ],
};

const withBankId = (picker: boolean) => () =>
  json({ ...publicSettings, bankIdEnabled: true, bankIdBankPicker: picker });

const appLink = "appId=campus&state=s%201&redirectUri=https%3A%2F%2Fcampus.kpi.ua%2Fcb";

describe("the BankID button on the login screen", () => {
  it("goes to the server's redirect with the application's link, in both languages", async () => {
    for (const [language, name] of [
      ["uk", "Увійти через BankID"],
      ["en", "Sign in with BankID"],
    ] as const) {
      mockFetch({ "GET /user": unauthorized, "GET /api/settings": withBankId(false) });
      const { unmount } = renderApp(`/${language}/?${appLink}&google_auth_error=x`);
      const button = await screen.findByRole("link", { name });
      const href = new URL(button.getAttribute("href") ?? "", "http://localhost");
      expect(href.pathname).toBe("/api/bankid/redirect");
      expect(Object.fromEntries(href.searchParams)).toEqual({
        appId: "campus",
        state: "s 1",
        redirectUri: "https://campus.kpi.ua/cb",
      });
      unmount();
    }
  });

  it("is not there when the deployment has no BankID", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/");
    expect(await screen.findByTestId("google-login")).toBeInTheDocument();
    expect(screen.queryByTestId("bankid-login")).toBeNull();
  });

  it("opens the university's bank picker: logos, radio buttons, the keyboard, then the redirect with the bank", async () => {
    const fetches = mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId(true),
      "GET /api/banks": () => json(banks),
    });
    renderApp(`/en/?${appLink}`);
    const user = userEvent.setup();
    const button = await screen.findByRole("button", { name: "Sign in with BankID" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(fetches.mock.calls.some(([url]) => String(url).includes("/api/banks"))).toBe(false);
    await user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    const group = await screen.findByRole("group", { name: "Choose your bank" });
    const options = within(group).getAllByRole("radio");
    expect(options.map((option) => option.getAttribute("value"))).toEqual(["privat", "mono", "oschad"]);
    expect(within(group).getByRole("radio", { name: "monobank" })).toBeInTheDocument();
    // A logo beside each name that has one (decorative: the name says which bank), the initial otherwise.
    expect(group.querySelectorAll("img[alt='']")).toHaveLength(2);
    // Tab into the group, arrows move the choice.
    await user.tab();
    expect(options[0]).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(options[1]).toBeChecked();
    // Enter continues: a full-page navigation to the server's redirect, the application's link and the bank along.
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    await user.keyboard("{Enter}");
    expect(assign).toHaveBeenCalledTimes(1);
    const href = new URL(assign.mock.calls[0]?.[0] ?? "", "http://localhost");
    expect(href.pathname).toBe("/api/bankid/redirect");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      bank: "mono",
      appId: "campus",
      state: "s 1",
      redirectUri: "https://campus.kpi.ua/cb",
    });
    // One sign-in at a time: the page's other ways wait while the browser leaves.
    expect(screen.getByRole("button", { name: "Sign in with BankID" })).toBeDisabled();
  });

  it("says the list is loading, then that it failed, and asks again on Try again", async () => {
    let answer: () => Response = () => json({ code: "internal" }, 503);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId(true),
      "GET /api/banks": async () => {
        await gate;
        return answer();
      },
    });
    renderApp("/uk/");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Увійти через BankID" }));
    const picker = screen.getByTestId("bank-picker");
    // The status enters the page empty and its words go in after (live-status.tsx): a live region mounted with its
    // words already in is often not read.
    const loading = within(picker).getByRole("status");
    expect(loading).toHaveTextContent(/^$/);
    await waitFor(() => expect(loading).toHaveTextContent("Завантажуємо список банків…"));
    release();
    const error = await within(picker).findByTestId("bank-picker-error");
    expect(error).toHaveAttribute("role", "alert");
    expect(error).toHaveTextContent("Не вдалося завантажити список банків");
    answer = () => json(banks);
    await user.click(within(picker).getByRole("button", { name: "Спробувати ще раз" }));
    expect(await within(picker).findByRole("radio", { name: "Ощадбанк" })).toBeInTheDocument();
    expect(within(picker).queryByTestId("bank-picker-error")).toBeNull();
  });

  it("says from when the list is when BankID's node does not give one (the server's kept copy)", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId(true),
      "GET /api/banks": () => json({ ...banks, stale: true, listedAt: "2026-11-27T08:30:00.000Z" }),
    });
    renderApp("/en/");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sign in with BankID" }));
    const note = await screen.findByTestId("bank-picker-stale");
    expect(note).toHaveTextContent(/^BankID does not give its list of banks right now: this one is from .*2026/);
    expect(screen.getAllByRole("radio")).toHaveLength(3);
  });

  it("says so when BankID reports no workable bank", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/settings": withBankId(true),
      "GET /api/banks": () => json({ banks: [] }),
    });
    renderApp("/en/");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sign in with BankID" }));
    await waitFor(() =>
      expect(screen.getByTestId("bank-picker-empty")).toHaveTextContent("No bank accepts sign-ins right now"),
    );
    expect(screen.queryByRole("button", { name: "Continue to the bank" })).toBeNull();
  });
});
