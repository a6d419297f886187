import type { AdminMe, ApplicationAccess, CasServices } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { answerWait } from "@/features/console-shell/index.ts";
import { follows, restoreAnswerWait } from "@/features/console-shell/testing.ts";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { apiError, heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const appId = "7c2f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b";
const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage", "people.view"],
};
const detail = applicationDetail({ id: appId, name: "moodle", title: "Мудл", titleEn: "Moodle" });
const access: ApplicationAccess = {
  rules: [
    {
      id: "9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
      affiliation: "student",
      unitCode: "FIOT",
      unitName: null,
      includeSubunits: true,
      status: null,
    },
  ],
  exclusions: [],
  people: 412,
};
const cas: CasServices = {
  serverUrl: "http://localhost:3000/cas",
  services: [
    {
      url: "https://moodle.kpi.ua/login/index.php",
      match: "exact",
      attributes: [],
      renames: {},
      singleLogout: false,
      proxy: false,
    },
  ],
};

/** The application screen, its rules' and CAS services' answers held back until each `answer` is called. */
function openApplication(rulesAnswer = () => json(access), servicesAnswer = () => json(cas)) {
  const rules = heldAnswer(rulesAnswer);
  const services = heldAnswer(servicesAnswer);
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/applications/${appId}`]: () => json(detail),
    [`GET /api/admin/applications/${appId}/access`]: rules.handler,
    [`GET /api/admin/applications/${appId}/cas-services`]: services.handler,
    [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
  });
  renderApp(`/en/admin/applications/${appId}`);
  return { answerRules: rules.answer, answerServices: services.answer };
}

/** The application screen, shown (held until then) with its rules' and CAS services' answers both failed. */
async function showFailedSections() {
  answerWait.ms = 60_000;
  const { answerRules, answerServices } = openApplication(
    () => apiError("service.database_unavailable"),
    () => apiError("service.internal_error"),
  );
  const addRule = await screen.findByTestId("rule-add");
  answerRules();
  answerServices();
  await waitFor(() => expect(addRule).toBeVisible());
}

/**
 * The access rules and CAS services came after the rest of the application screen and pushed the rule form, bulk
 * grant, suspension and people search down (at 390 px by hundreds of pixels), under a tap meant for them. The screen
 * shows itself with both; answers later than the wait find their sections framed with placeholders.
 */
describe("the application screen and its rules' and CAS services' own answers", () => {
  restoreAnswerWait();

  it("shows the sections only with the rules and the CAS services, never the forms below before them", async () => {
    // Long enough for a first render that compiles the console's modules on a loaded machine.
    answerWait.ms = 60_000;
    const { answerRules, answerServices } = openApplication();
    const addRule = await screen.findByTestId("rule-add");
    expect(addRule).not.toBeVisible();
    expect(screen.getByTestId("access-search")).not.toBeVisible();
    // Held, the screen says so to a screen reader, not only with a grey block.
    expect(screen.getByTestId("application-waiting")).toHaveAttribute("role", "status");
    // Its words go in just after the status (answers-first.tsx), so that a screen reader reads them.
    await waitFor(() => expect(screen.getByTestId("application-waiting")).toHaveTextContent("Loading…"));
    // The application's name and the way back stand meanwhile; they do not move.
    expect(screen.getByRole("heading", { name: "Moodle" })).toBeVisible();
    answerRules();
    expect(await screen.findByTestId("rules-people")).not.toBeVisible();
    answerServices();
    await waitFor(() => expect(addRule).toBeVisible());
    expect(screen.getByTestId("rules-people")).toHaveTextContent("412 people may use it now");
    expect(within(screen.getByTestId("rules-list")).getByText(/FIOT and its sub-units/)).toBeVisible();
    expect(screen.getByTestId("cas-service")).toHaveTextContent("https://moodle.kpi.ua/login/index.php");
    expect(screen.getByTestId("access-search")).toBeVisible();
    expect(screen.queryByTestId("application-waiting")).not.toBeInTheDocument();
  });

  it("after the wait, frames the late sections with placeholders where their answers go", async () => {
    answerWait.ms = 50;
    const { answerRules, answerServices } = openApplication();
    const addRule = await screen.findByTestId("rule-add");
    await waitFor(() => expect(addRule).toBeVisible());
    const rules = screen.getByTestId("application-rules");
    const services = screen.getByTestId("application-cas");
    expect(rules).toHaveAttribute("aria-busy", "true");
    expect(follows(within(rules).getByTestId("rules-loading"), addRule)).toBe(true);
    // Nor does it say "no exclusions" before the answer says so.
    expect(rules).not.toHaveTextContent("No exclusions");
    expect(services).toHaveAttribute("aria-busy", "true");
    expect(follows(within(services).getByTestId("cas-loading"), screen.getByTestId("cas-add"))).toBe(true);

    answerRules();
    expect(await within(rules).findByTestId("rules-people")).toHaveTextContent("412 people");
    expect(rules).not.toHaveAttribute("aria-busy");
    expect(within(rules).queryByTestId("rules-loading")).not.toBeInTheDocument();
    answerServices();
    expect(await within(services).findByTestId("cas-server-url")).toHaveTextContent("http://localhost:3000/cas");
    expect(services).not.toHaveAttribute("aria-busy");
    expect(within(services).queryByTestId("cas-loading")).not.toBeInTheDocument();
  });

  it("says in its sections that the rules and CAS services could not be read, and why; no 'no exclusions'", async () => {
    await showFailedSections();
    const rules = screen.getByTestId("application-rules");
    expect(within(rules).getByTestId("rules-failed")).toHaveTextContent(
      "The application's access rules could not be read. KPI ID is briefly unavailable.",
    );
    expect(rules).not.toHaveTextContent(/No exclusions|No rules/);
    expect(rules).not.toHaveAttribute("aria-busy");
    expect(within(rules).queryByTestId("rules-loading")).not.toBeInTheDocument();
    const services = screen.getByTestId("application-cas");
    expect(within(services).getByTestId("cas-failed")).toHaveTextContent(
      "The application's CAS services could not be read. Something went wrong on our side.",
    );
    expect(services).not.toHaveAttribute("aria-busy");
  });

  it("says the rules' and CAS services' failures as alerts, there as the held screen shows", async () => {
    await showFailedSections();
    expect(within(screen.getByTestId("application-rules")).getByRole("alert")).toHaveTextContent(
      "The application's access rules could not be read.",
    );
    expect(within(screen.getByTestId("application-cas")).getByRole("alert")).toHaveTextContent(
      "The application's CAS services could not be read.",
    );
    // Each failure once: the two lines are the screen's only alerts.
    expect(screen.getAllByRole("alert")).toHaveLength(2);
  });

  // The application's read had a placeholder of its own, and the wait after it another in the shown section: a
  // screen reader heard "Loading…" twice for one screen. One status stands through both.
  it("stays one status from the application's read through the wait for its rules: 'Loading…' is said once", async () => {
    answerWait.ms = 60_000;
    const application = heldAnswer(() => json(detail));
    const rules = heldAnswer(() => json(access));
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      [`GET /api/admin/applications/${appId}`]: application.handler,
      [`GET /api/admin/applications/${appId}/access`]: rules.handler,
      [`GET /api/admin/applications/${appId}/cas-services`]: () => json(cas),
      [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    });
    renderApp(`/en/admin/applications/${appId}`);
    const sayingLoading = () =>
      screen.queryAllByRole("status").filter((status) => status.textContent?.includes("Loading…"));
    await waitFor(() => expect(sayingLoading()).toHaveLength(1));
    const [reading] = sayingLoading();
    application.answer();
    expect(await screen.findByRole("heading", { name: "Moodle" })).toBeVisible();
    expect(screen.getByTestId("rule-add")).not.toBeVisible();
    // The same element, not a new one that says it again (toEqual would take an equal copy).
    expect(sayingLoading()).toHaveLength(1);
    expect(sayingLoading()[0]).toBe(reading);
    rules.answer();
    await waitFor(() => expect(screen.getByTestId("rule-add")).toBeVisible());
    expect(sayingLoading()).toEqual([]);
  });

  it("asks for the rules and CAS services once when they answer before the application", async () => {
    answerWait.ms = 60_000;
    const later = heldAnswer(() => json(detail));
    const calls = mockFetch({
      "GET /api/admin/me": () => json(admin),
      [`GET /api/admin/applications/${appId}`]: later.handler,
      [`GET /api/admin/applications/${appId}/access`]: () => json(access),
      [`GET /api/admin/applications/${appId}/cas-services`]: () => json(cas),
      [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    });
    renderApp(`/en/admin/applications/${appId}`);
    const asked = (path: string) => calls.mock.calls.filter(([input]) => String(input).endsWith(path)).length;
    await waitFor(() => expect(asked("/cas-services")).toBe(1));
    await waitFor(() => expect(asked("/access")).toBe(1));
    // Both answers are in before the application's, so the sections mount onto answers already there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    later.answer();
    const addRule = await screen.findByTestId("rule-add");
    await waitFor(() => expect(addRule).toBeVisible());
    expect(screen.getByTestId("cas-server-url")).toBeVisible();
    expect([asked("/access"), asked("/cas-services")]).toEqual([1, 1]);
  });
});
