import type { AdminMe, AdminWifi, PersonDetail } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fictUnitAdmin, unitTree } from "../../../../test/console-units.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a10";
const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["people.view", "people.roles", "people.status", "people.unlock"],
};
const [fict, cs] = unitTree;
const held = (role: "unit_admin" | "unit_helpdesk", unit = fict) =>
  unit ? { role, unit: { id: unit.id, code: unit.code, nameUk: unit.nameUk, nameEn: unit.nameEn } } : undefined;

async function openPerson(operator: AdminMe, detail: PersonDetail, language: "uk" | "en") {
  const sent: { path: string; body: unknown }[] = [];
  const record = (path: string) => (_url: URL, init: RequestInit) => {
    sent.push({ path, body: JSON.parse(String(init.body)) });
    return json({ done: true });
  };
  mockFetch({
    "GET /api/admin/me": () => json(operator),
    [`GET /api/admin/people/${id}`]: () => json(detail),
    [`GET /api/admin/people/${id}/wifi`]: () => json({ passwords: [], wifiOff: false } satisfies AdminWifi),
    "GET /api/admin/applications": () => json({ applications: [] }),
    "GET /api/admin/units": () => json({ units: unitTree }),
    [`POST /api/admin/people/${id}/unit-roles/grant`]: record("grant"),
    [`POST /api/admin/people/${id}/unit-roles/revoke`]: record("revoke"),
  });
  renderApp(`/${language}/admin/people/${id}`);
  const name = await screen.findByTestId("person-name");
  await waitFor(() => expect(name).toBeVisible());
  return sent;
}

/** Issue 79: an admin sees a person's roles in units, grants one with the unit picker and takes one away. */
describe("a person's roles in units on the console's person screen", () => {
  it("lists the roles, grants one in a department found by its name, and revokes one after the confirmation", async () => {
    const user = userEvent.setup();
    const sent = await openPerson(
      admin,
      personDetail(id, { unitRoles: [held("unit_helpdesk")].filter((h) => h !== undefined) }),
      "uk",
    );
    const section = screen.getByTestId("person-unit-roles");
    expect(within(section).getByTestId("unit-role-list")).toHaveTextContent(
      "служба підтримки підрозділу · FICT (Факультет інформатики та обчислювальної техніки)",
    );
    const grant = within(section).getByRole("button", { name: "Надати роль" });
    expect(grant).toBeDisabled();
    await user.type(within(section).getByLabelText("Пошук за кодом чи назвою"), "обчислювальної техніки кафедра");
    const picker = within(section).getByRole("group", { name: /Підрозділ/ });
    expect(within(picker).getAllByRole("radio")).toHaveLength(1);
    await user.click(within(picker).getByRole("radio", { name: /FICT-CS/ }));
    await user.click(grant);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ path: "grant", body: { role: "unit_admin", unitId: cs?.id } });
    // Given: the picker starts afresh, its search with its choice.
    await waitFor(() => expect(within(section).getByLabelText("Пошук за кодом чи назвою")).toHaveValue(""));
    expect(within(section).getByRole("button", { name: "Надати роль" })).toBeDisabled();

    await user.click(within(section).getByRole("button", { name: "Забрати роль: служба підтримки підрозділу · FICT" }));
    await user.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ path: "revoke", body: { role: "unit_helpdesk", unitId: fict?.id } });
  });

  it("says when nothing matches the search, in English", async () => {
    const user = userEvent.setup();
    await openPerson(admin, personDetail(id), "en");
    const section = screen.getByTestId("person-unit-roles");
    expect(section).toHaveTextContent("No roles in units.");
    await user.type(within(section).getByLabelText("Search by code or name"), "chemistry");
    expect(within(section).getByTestId("unit-role-unit-nothing")).toHaveTextContent("No unit matches the search.");
  });

  it("is not shown to a unit admin for a person without roles in units, and offers no grant", async () => {
    await openPerson(fictUnitAdmin, personDetail(id), "en");
    expect(screen.queryByTestId("person-unit-roles")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Give the role" })).not.toBeInTheDocument();
  });
});
