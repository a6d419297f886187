import type { AdminMe, AuditEventView, CasServices } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage", "audit.view", "people.view"],
};
const appId = "5b0f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b";
const timetable = { id: appId, name: "timetable", title: "Розклад", titleEn: "Timetable" };
const noCasServices: CasServices = { serverUrl: "http://localhost:3000/cas", services: [] };
const noEnglish = { id: "6c1f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b", name: "library", title: "Бібліотека", titleEn: "" };

function event(changes: Partial<AuditEventView>): AuditEventView {
  return {
    id: String(Math.random()),
    occurredAt: "2026-09-01T08:00:00.000Z",
    type: "sign_in",
    result: "failure",
    method: null,
    person: null,
    actor: null,
    application: null,
    reason: null,
    address: "203.0.113.7",
    ...changes,
  };
}

const events = [
  event({ method: "PASSWORD", reason: "auth.invalid_credentials" }),
  event({ method: "DIIA", reason: "diia.unknown_person" }),
  event({ type: "oidc_sign_in", method: "PASSKEY", application: timetable, reason: "no access to this application" }),
  event({ type: "user_updated", result: "success", reason: "email,fullName" }),
];

function openAudit(language: "en" | "uk") {
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    "GET /api/admin/audit": () => json({ events, next: null }),
    "GET /api/admin/applications": () =>
      json({
        applications: [
          { ...timetable, callbackUrl: "https://t.kpi.ua/cb", oidcEnabled: true, firstParty: false, people: 3 },
          { ...noEnglish, callbackUrl: "https://l.kpi.ua/cb", oidcEnabled: false, firstParty: false, people: 0 },
        ],
      }),
  });
  renderApp(`/${language}/admin/audit`);
}

/** Issue 37: the console's audit reasons and applications in the page's language, never a server code. */
describe("the console's words", () => {
  it("says the audit log's reasons and methods in English and names applications by their English title", async () => {
    openAudit("en");
    const table = await screen.findByTestId("audit-table");
    expect(await within(table).findByText("Wrong password")).toBeInTheDocument();
    expect(within(table).getByText("The university has no one with this tax number")).toBeInTheDocument();
    expect(within(table).getByText("No access to the application")).toBeInTheDocument();
    expect(within(table).getByText("Changed: e-mail, full name")).toBeInTheDocument();
    expect(within(table).getByText(/Passkey/)).toBeInTheDocument();
    expect(within(table).getByText("Timetable")).toBeInTheDocument();
    expect(table).not.toHaveTextContent(/auth\.invalid_credentials|diia\.unknown_person|PASSKEY|Розклад/);
    // No person, operator or application on a row reads as words, never a dash.
    expect(within(table).getAllByText("not recorded").length).toBeGreaterThan(0);
    expect(table).not.toHaveTextContent(/—|--/);
    // The filter lists applications the same way; one without an English title keeps its own.
    expect(screen.getByRole("option", { name: "Timetable" })).toBeInTheDocument();
    expect(screen.getByRole("option", { name: "Бібліотека" })).toBeInTheDocument();
  });

  it("says them in Ukrainian with the Ukrainian titles", async () => {
    openAudit("uk");
    const table = await screen.findByTestId("audit-table");
    expect(await within(table).findByText("Неправильний пароль")).toBeInTheDocument();
    expect(within(table).getByText("В університеті немає особи з цим податковим номером")).toBeInTheDocument();
    expect(within(table).getByText(/Ключ доступу/)).toBeInTheDocument();
    expect(within(table).getByText("Розклад")).toBeInTheDocument();
    expect(table).not.toHaveTextContent(/auth\.|diia\.|PASSKEY|Timetable|—/);
    expect(within(table).getAllByText("не записано").length).toBeGreaterThan(0);
  });

  it("labels an application's settings in Ukrainian, scopes included", async () => {
    const detail = applicationDetail({ ...timetable, oidcEnabled: true, scopes: ["openid"] });
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      [`GET /api/admin/applications/${appId}`]: () => json(detail),
      [`GET /api/admin/applications/${appId}/access`]: () => json({ rules: [], exclusions: [], people: 0 }),
      [`GET /api/admin/applications/${appId}/cas-services`]: () => json(noCasServices),
      [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    });
    renderApp(`/uk/admin/applications/${appId}`);
    const settings = await screen.findByTestId("application-settings");
    // Mounted hidden until the rules and CAS services answer (answers-first.tsx): the checks below read it shown.
    await waitFor(() => expect(settings).toBeVisible());
    expect(within(settings).getByLabelText("Адреси повернення після входу через OpenID Connect")).toBeInTheDocument();
    expect(within(settings).getByLabelText("Адреси повернення після виходу")).toBeInTheDocument();
    expect(within(settings).getByText("Дані, які застосунок може запитувати")).toBeInTheDocument();
    expect(within(settings).getByLabelText(/податковий номер/)).toBeInTheDocument();
    // The device authorization grant (issue 39), off as the application has it.
    expect(within(settings).getByLabelText(/Вхід на пристроях/)).not.toBeChecked();
    expect(settings).not.toHaveTextContent(/Redirect|Scopes|back-channel|post-logout/i);
  });
});
