import type { AdminWifi, WifiPassword } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { helpdeskOperator } from "../../../../test/console-operators.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a61";

const person = personDetail(id, { username: "oksana", fullName: "Коваль Оксана" });

const phone: WifiPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6161",
  name: "Телефон",
  identity: "oksana+k2m4p6@kpi.ua",
  createdAt: "2026-11-01T08:00:00Z",
  lastUsedAt: "2026-11-20T09:15:00Z",
  uses: [
    { usedAt: "2026-11-20T09:15:00Z", method: "pap", accessPoint: "AA-BB-CC-DD-EE-01:eduroam", nasIdentifier: "" },
    { usedAt: "2026-11-19T17:40:00Z", method: "pap", accessPoint: "AA-BB-CC-DD-EE-07:eduroam", nasIdentifier: "lib-2" },
    { usedAt: "2026-11-18T07:05:00Z", method: "mschapv2", accessPoint: "", nasIdentifier: "" },
  ],
  sessions: [],
};
const laptop: WifiPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6162",
  name: "Ноутбук",
  identity: "oksana+q7r8s9@kpi.ua",
  createdAt: "2026-11-02T08:00:00Z",
  lastUsedAt: null,
  uses: [],
  sessions: [],
};

function openPerson(language: "uk" | "en") {
  mockFetch({
    "GET /api/admin/me": () => json(helpdeskOperator),
    [`GET /api/admin/people/${id}`]: () => json(person),
    [`GET /api/admin/people/${id}/wifi`]: () =>
      json({ passwords: [phone, laptop], wifiOff: false } satisfies AdminWifi),
    "GET /api/admin/applications": () => json({ applications: [] }),
  });
  renderApp(`/${language}/admin/people/${id}`);
}

/** The devices' rows once the screen shows them: it is mounted hidden until its answers are in (answers-first.tsx). */
async function shownRows() {
  const rows = await screen.findAllByTestId("person-wifi-password");
  await waitFor(() => expect(screen.getByTestId("person-name")).toBeVisible());
  return rows;
}

/** Issue 61: the helpdesk sees where a person's device joined Wi-Fi lately, as the person does on the account page. */
describe("the console's Wi-Fi devices of a person", () => {
  it("names each device's last access point whole and unfolds its recent uses, newest first", async () => {
    openPerson("en");
    const rows = await shownRows();
    const [phoneRow, laptopRow] = rows as [HTMLElement, HTMLElement];
    const last = within(phoneRow).getAllByTestId("wifi-access-point")[0];
    expect(last).toHaveTextContent("AA-BB-CC-DD-EE-01:eduroam");
    // Kept whole on a phone: one unit, its full id in the title when it must be cut.
    expect(last).toHaveAttribute("title", "AA-BB-CC-DD-EE-01:eduroam");
    expect(phoneRow).toHaveTextContent(/last used .+ at AA-BB-CC-DD-EE-01:eduroam/);

    await userEvent.setup().click(within(phoneRow).getByText("Recent uses (3)"));
    const uses = within(phoneRow).getByRole("list", { name: "Recent uses: when and at which access point" });
    const items = within(uses).getAllByRole("listitem");
    expect(items.map((item) => item.textContent?.split(" · ")[1])).toEqual([
      "AA-BB-CC-DD-EE-01:eduroam",
      "lib-2",
      "an unnamed access point",
    ]);
    expect(within(items[0] as HTMLElement).getByText(/2026/).tagName).toBe("TIME");

    // A device never used has no list to unfold.
    expect(laptopRow).toHaveTextContent("not used yet");
    expect(within(laptopRow).queryByTestId("wifi-uses")).not.toBeInTheDocument();
  });

  it("says the same in Ukrainian", async () => {
    openPerson("uk");
    const [phoneRow] = (await shownRows()) as [HTMLElement];
    expect(phoneRow).toHaveTextContent(/востаннє .+, точка доступу AA-BB-CC-DD-EE-01:eduroam/);
    await userEvent.setup().click(within(phoneRow).getByText("Останні використання (3)"));
    const uses = within(phoneRow).getByRole("list", { name: "Останні використання: коли та на якій точці доступу" });
    expect(within(uses).getAllByRole("listitem").at(-1)).toHaveTextContent("без назви");
  });
});
