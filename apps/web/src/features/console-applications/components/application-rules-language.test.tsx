import type { AdminMe, ApplicationAccess } from "@kpi-id/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const appId = "7c2f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6c";
const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage"],
};
const rule = {
  id: "9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e",
  affiliation: "student",
  unitCode: "FICT-CS",
  unitName: "Кафедра обчислювальної техніки",
  unitNameEn: "Department of Computer Engineering",
  includeSubunits: true,
  status: null,
};

function openRules(language: "uk" | "en", rules: ApplicationAccess["rules"]) {
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/applications/${appId}`]: () =>
      json(applicationDetail({ id: appId, name: "moodle", title: "Мудл" })),
    [`GET /api/admin/applications/${appId}/access`]: () => json({ rules, exclusions: [], people: 3 }),
    [`GET /api/admin/applications/${appId}/cas-services`]: () =>
      json({ serverUrl: "http://localhost/cas", services: [] }),
    [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    "GET /api/admin/units": () => json({ units: [] }),
  });
  renderApp(`/${language}/admin/applications/${appId}`);
}

/** Issue 79: a rule's unit was described by its Ukrainian name on English screens; it follows the screen's language. */
describe("an access rule's unit in the screen's language", () => {
  it("names the unit in English on an English screen", async () => {
    openRules("en", [rule]);
    const list = await screen.findByTestId("rules-list");
    expect(list).toHaveTextContent("unit: FICT-CS (Department of Computer Engineering) and its sub-units");
    expect(within(list).queryByText(/Кафедра/)).not.toBeInTheDocument();
  });

  it("names it in Ukrainian on a Ukrainian screen", async () => {
    openRules("uk", [rule]);
    expect(await screen.findByTestId("rules-list")).toHaveTextContent(
      "підрозділ: FICT-CS (Кафедра обчислювальної техніки) з підпорядкованими",
    );
  });

  it("falls back to the Ukrainian name when the unit has no English one", async () => {
    openRules("en", [{ ...rule, unitNameEn: "" }]);
    expect(await screen.findByTestId("rules-list")).toHaveTextContent("FICT-CS (Кафедра обчислювальної техніки)");
  });
});
