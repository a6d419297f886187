import type { AdminMe, AdminWifi, PersonDetail } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a10";
const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["people.edit", "people.status", "people.unlock", "people.sessions", "access.change"],
};

const person = (changes: Partial<PersonDetail>) => personDetail(id, { employeeId: "E-20931", ...changes });

/**
 * The person screen, shown: it is mounted hidden until the person's Wi-Fi answers (answers-first.tsx), and a check
 * that something is absent passes on a hidden screen (queries by role skip hidden elements), so each test starts
 * from the person's name in sight.
 */
async function openPerson(detail: PersonDetail, language: "uk" | "en" = "en") {
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/people/${id}`]: () => json(detail),
    [`GET /api/admin/people/${id}/wifi`]: () => json({ passwords: [], wifiOff: false } satisfies AdminWifi),
    "GET /api/admin/applications": () => json({ applications: [] }),
  });
  renderApp(`/${language}/admin/people/${id}`);
  const name = await screen.findByTestId("person-name");
  await waitFor(() => expect(name).toBeVisible());
}

/** Issue 36 and 37: what the HR system owns is marked, a person it removed cannot be half-enabled, no "—". */
describe("the console's person page for people the HR system provisions", () => {
  it("marks a provisioned person as managed by HR, shows the source's id, and offers no profile edit", async () => {
    await openPerson(person({ provisioning: { managed: true, externalId: "9c1e0f7a-entra", removedAt: null } }));
    const profile = await screen.findByTestId("person-profile");
    expect(within(profile).getByText("9c1e0f7a-entra")).toBeInTheDocument();
    expect(within(profile).getByTestId("person-managed")).toHaveTextContent(/overwritten by their next update/);
    expect(within(profile).queryByRole("button", { name: "Edit profile" })).not.toBeInTheDocument();
    expect(within(profile).getAllByText("not on file").length).toBeGreaterThan(0);
    expect(profile).not.toHaveTextContent("—");
  });

  it("says a person the HR system removed was removed by it, and offers no Enable", async () => {
    await openPerson(
      person({
        status: "disabled",
        provisioning: { managed: true, externalId: null, removedAt: "2026-11-20T10:00:00.000Z" },
      }),
      "uk",
    );
    expect(await screen.findByTestId("person-removed")).toHaveTextContent(
      /Вилучено кадровою або студентською системою/,
    );
    expect(screen.queryByRole("button", { name: "Увімкнути" })).not.toBeInTheDocument();
  });

  it("keeps Edit and Enable for a person KPI ID manages itself; Unlock only when there is a lock", async () => {
    await openPerson(person({ status: "disabled" }));
    const profile = await screen.findByTestId("person-profile");
    expect(within(profile).getByRole("button", { name: "Edit profile" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enable" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Unlock" })).toBeDisabled();
  });

  it("lists the student records and positions with their units, statuses and the system that wrote them", async () => {
    await openPerson(
      person({
        provisioning: { managed: true, externalId: "hr-20931", removedAt: null },
        records: [
          {
            kind: "employee",
            id: "E-20931",
            status: "active",
            primary: true,
            unit: { code: "FICT", nameUk: "Факультет інформатики", nameEn: "Faculty of Informatics" },
            title: "Доцент",
            source: "scim",
          },
          { kind: "student", id: "КВ-0042", status: "graduated", primary: false, unit: null, title: "", source: "csv" },
        ],
      }),
    );
    const records = await screen.findAllByTestId("person-record");
    expect(records[0]).toHaveTextContent("Position E-20931 · primary");
    expect(records[0]).toHaveTextContent(
      "Faculty of Informatics (FICT) · Доцент · active employee · from the HR or student system (SCIM)",
    );
    expect(records[1]).toHaveTextContent("Student record КВ-0042");
    expect(records[1]).toHaveTextContent("unit not on file · graduated · from a CSV import");
  });
});
