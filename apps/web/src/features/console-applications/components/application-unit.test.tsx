import type { AdminApplication, ApplicationAccess, ApplicationSecret } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { fictUnitAdmin, unitTree } from "../../../../test/console-units.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const appId = "7c2f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b";
const [fict, cs] = unitTree;
// A unit admin of FICT reaches FICT and the units below it: what /api/admin/units answers them.
const reach = unitTree.filter((unit) => unit.code.startsWith("FICT"));
const listed: AdminApplication = {
  id: appId,
  name: "fict-lab",
  title: "Лабораторія ФІОТ",
  titleEn: "FICT lab",
  callbackUrl: "https://lab.fict.kpi.ua/cb",
  oidcEnabled: false,
  firstParty: false,
  people: 0,
  unit: fict ? { id: fict.id, code: fict.code } : null,
};
const noRules: ApplicationAccess = { rules: [], exclusions: [], people: 0 };

function mockUnitAdminConsole() {
  const sent: { path: string; body: unknown }[] = [];
  const record = (path: string, answer: unknown) => (_url: URL, init: RequestInit) => {
    sent.push({ path, body: JSON.parse(String(init.body)) });
    return json(answer);
  };
  mockFetch({
    "GET /api/admin/me": () => json(fictUnitAdmin),
    "GET /api/admin/people": () => json({ people: [], page: 1, hasMore: false, total: 0, totalCapped: false }),
    "GET /api/admin/units": () => json({ units: reach }),
    "GET /api/admin/applications": () => json({ applications: [listed] }),
    "POST /api/admin/applications": record("create", {
      application: listed,
      secret: "s3cr3t-once",
    } satisfies ApplicationSecret),
    [`GET /api/admin/applications/${appId}`]: () =>
      json(
        applicationDetail({
          id: appId,
          name: "fict-lab",
          title: "Лабораторія ФІОТ",
          titleEn: "FICT lab",
          unit: fict ? { id: fict.id, code: fict.code, nameUk: fict.nameUk, nameEn: fict.nameEn } : null,
        }),
      ),
    [`GET /api/admin/applications/${appId}/access`]: () => json(noRules),
    [`GET /api/admin/applications/${appId}/cas-services`]: () => json({ serverUrl: "http://x/cas", services: [] }),
    [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    [`POST /api/admin/applications/${appId}/rules`]: record("rule", { done: true }),
    [`POST /api/admin/applications/${appId}/unit`]: record("unit", { done: true }),
  });
  return sent;
}

/** Issue 79: a faculty's unit admin sees what their role reaches, and their applications belong to their units. */
describe("the console of a faculty's unit admin", () => {
  it("shows only the sections the role reaches and names the role with its unit", async () => {
    mockUnitAdminConsole();
    renderApp("/en/admin");
    const nav = await screen.findByRole("navigation", { name: /console/i });
    const sections = within(nav)
      .getAllByRole("link")
      .map((link) => link.textContent);
    expect(sections).toEqual(["People", "Applications", "Application reviews", "Audit log", "Guests"]);
    expect(screen.getByTestId("console-operator")).toHaveTextContent("Сидоренко Ірина · unit admin · FICT");
  });

  it("registers an application for the operator's faculty, offering no unit out of reach and no central IT", async () => {
    const user = userEvent.setup();
    const sent = mockUnitAdminConsole();
    renderApp("/uk/admin/applications");
    const form = await screen.findByTestId("create-application");
    const picker = within(form).getByTestId("create-unit");
    await waitFor(() => expect(within(picker).getAllByRole("radio")).toHaveLength(3));
    expect(within(picker).getByRole("radio", { name: /^FICT Факультет/ })).toBeChecked();
    expect(picker).not.toHaveTextContent("Центральний ІТ");
    expect(picker).not.toHaveTextContent("FEL");
    await user.type(within(form).getByLabelText("Назва (ідентифікатор)"), "fict-lab");
    await user.type(within(form).getByLabelText("Заголовок"), "Лабораторія ФІОТ");
    await user.type(within(form).getByLabelText("Адреса повернення"), "https://lab.fict.kpi.ua/cb");
    await user.click(within(form).getByRole("button", { name: "Зареєструвати застосунок" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ name: "fict-lab", unitId: fict?.id });
    const table = screen.getByTestId("applications-table");
    expect(within(table).getByRole("row", { name: /Лабораторія ФІОТ/ })).toHaveTextContent("FICT");
  });

  it("limits an application to one department and moves it there, with no rule for any unit offered", async () => {
    const user = userEvent.setup();
    const sent = mockUnitAdminConsole();
    renderApp(`/en/admin/applications/${appId}`);
    const owner = await screen.findByTestId("application-unit-current");
    await waitFor(() => expect(owner).toBeVisible());
    expect(owner).toHaveTextContent("FICT Faculty of Informatics and Computer Science");
    const rules = screen.getByTestId("application-rules");
    const rulePicker = within(rules).getByTestId("rule-unit");
    expect(rulePicker).not.toHaveTextContent("any");
    await user.type(within(rulePicker).getByLabelText("Search by code or name"), "computer engineering");
    await user.click(within(rulePicker).getByRole("radio", { name: /FICT-CS/ }));
    await user.click(within(rules).getByTestId("rule-add"));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      path: "rule",
      body: { affiliation: null, unitCode: "FICT-CS", includeSubunits: true, status: null },
    });
    // Added: the picker starts afresh (a new one), its search with its choice.
    await waitFor(() =>
      expect(within(within(rules).getByTestId("rule-unit")).getByLabelText("Search by code or name")).toHaveValue(""),
    );

    const assign = screen.getByTestId("application-unit");
    await user.click(within(assign).getByRole("radio", { name: /FICT-CS/ }));
    await user.click(within(assign).getByRole("button", { name: "Assign" }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ path: "unit", body: { unitId: cs?.id } });
  });
});
