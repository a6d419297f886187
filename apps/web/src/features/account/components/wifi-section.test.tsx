import type { WifiPassword, WifiPasswords } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { WifiSection } from "./wifi-section.tsx";

const phone: WifiPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6101",
  name: "Телефон",
  identity: "oksana+k2m4p6@kpi.ua",
  createdAt: "2026-11-01T08:00:00Z",
  lastUsedAt: "2026-11-20T09:15:00Z",
  uses: [
    { usedAt: "2026-11-20T09:15:00Z", method: "pap", accessPoint: "AA-BB-CC-DD-EE-01:eduroam", nasIdentifier: "lib-2" },
    { usedAt: "2026-11-19T17:40:00Z", method: "pap", accessPoint: "AA-BB-CC-DD-EE-07:eduroam", nasIdentifier: "" },
    { usedAt: "2026-11-18T07:05:00Z", method: "mschapv2", accessPoint: "", nasIdentifier: "" },
  ],
  sessions: [{ controller: "wlc-1", since: "2026-11-20T09:15:00Z" }],
};
const laptop: WifiPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6102",
  name: "Ноутбук",
  identity: "oksana+q7r8s9@kpi.ua",
  createdAt: "2026-11-02T08:00:00Z",
  lastUsedAt: null,
  uses: [],
  sessions: [],
};

function wifiServer(renameAnswer: () => Response = () => json({ ok: true })) {
  let passwords = [phone, laptop];
  const renamed: unknown[] = [];
  mockFetch({
    "GET /api/account/wifi": () =>
      json({
        passwords,
        identity: "oksana@kpi.ua",
        anonymousIdentity: "anonymous@kpi.ua",
        ssid: "eduroam",
        wifiOff: false,
        limit: 10,
      } satisfies WifiPasswords),
    [`POST /api/account/wifi/${phone.id}/name`]: (_url, init) => {
      const body = JSON.parse(String(init.body)) as { name: string };
      renamed.push(body);
      const answer = renameAnswer();
      if (answer.ok) passwords = passwords.map((each) => (each.id === phone.id ? { ...each, name: body.name } : each));
      return answer;
    },
  });
  return renamed;
}

const phoneRow = async () => (await screen.findAllByTestId("wifi-password"))[0] as HTMLElement;

/** Issue 61: a person names, renames and revokes their Wi-Fi passwords, and sees where each was used. */
describe("the account page's Wi-Fi passwords", () => {
  it("says where a password is connected now, and nothing for one that is not (issue 73)", async () => {
    wifiServer();
    renderWithProviders(<WifiSection askAgain={vi.fn()} />);
    const [phoneItem, laptopItem] = await screen.findAllByTestId("wifi-password");
    expect(within(phoneItem as HTMLElement).getByTestId("wifi-session")).toHaveTextContent(
      /^Під’єднано зараз через wlc-1, з .*2026/,
    );
    expect(within(laptopItem as HTMLElement).queryByTestId("wifi-session")).toBeNull();
  });

  it("renames a password in place and gives focus back to the rename button", async () => {
    const renamed = wifiServer();
    const user = userEvent.setup();
    renderWithProviders(<WifiSection askAgain={vi.fn()} />);
    const row = await phoneRow();
    await user.click(within(row).getByRole("button", { name: "Перейменувати: Телефон" }));
    const field = within(row).getByLabelText("Нова назва для «Телефон»");
    expect(field).toHaveFocus();
    expect(field).toHaveValue("Телефон");
    await user.clear(field);
    await user.type(field, "  Робочий телефон ");
    await user.click(within(row).getByRole("button", { name: "Зберегти назву" }));
    await waitFor(() => expect(within(row).getByTestId("wifi-password-name")).toHaveTextContent("Робочий телефон"));
    expect(renamed).toEqual([{ name: "Робочий телефон" }]);
    await waitFor(() =>
      expect(within(row).getByRole("button", { name: "Перейменувати: Робочий телефон" })).toHaveFocus(),
    );
  });

  it("says a refused rename under the field and keeps what was typed; Escape leaves the old name", async () => {
    const renamed = wifiServer(() => apiError("wifi.password_not_found"));
    const user = userEvent.setup();
    renderWithProviders(<WifiSection askAgain={vi.fn()} />);
    const row = await phoneRow();
    await user.click(within(row).getByRole("button", { name: "Перейменувати: Телефон" }));
    const field = within(row).getByLabelText("Нова назва для «Телефон»");
    await user.clear(field);
    await user.type(field, "Старий");
    expect(within(row).getByRole("button", { name: "Зберегти назву" })).toBeEnabled();
    await user.keyboard("{Enter}");
    const alert = await within(row).findByRole("alert");
    expect(alert).toHaveTextContent("Такого пароля Wi-Fi немає: його вже відкликано.");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("Такого пароля Wi-Fi немає: його вже відкликано.");
    expect(field).toHaveValue("Старий");
    expect(renamed).toEqual([{ name: "Старий" }]);
    // An empty name is never sent.
    await user.clear(field);
    expect(within(row).getByRole("button", { name: "Зберегти назву" })).toBeDisabled();
    await user.keyboard("{Escape}");
    expect(within(row).queryByRole("textbox")).toBeNull();
    expect(within(row).getByTestId("wifi-password-name")).toHaveTextContent("Телефон");
  });

  it("shows the last use in the row and the recent ones (when, which access point) when opened", async () => {
    wifiServer();
    const user = userEvent.setup();
    renderWithProviders(<WifiSection askAgain={vi.fn()} />);
    const row = await phoneRow();
    expect(row).toHaveTextContent("lib-2");
    const uses = within(row).getByTestId("wifi-uses");
    const summary = within(uses).getByText("Останні використання (3)");
    expect(uses).not.toHaveAttribute("open");
    await user.click(summary);
    expect(uses).toHaveAttribute("open");
    const items = within(within(uses).getByRole("list")).getAllByRole("listitem");
    expect(items.map((item) => item.textContent?.split(" · ")[1])).toEqual([
      "lib-2",
      "AA-BB-CC-DD-EE-07:eduroam",
      "без назви",
    ]);
    expect(items[1]?.querySelector("time")).toHaveAttribute("datetime", "2026-11-19T17:40:00Z");
    // A password never used has no list to open.
    const unused = (await screen.findAllByTestId("wifi-password"))[1] as HTMLElement;
    expect(unused).toHaveTextContent("Ще не використовувався");
    expect(within(unused).queryByTestId("wifi-uses")).toBeNull();
  });
});
