import type { AdminMe, AdminWifi, OperatorRoleName, PeoplePage, WifiPassword } from "@kpi-id/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { helpdeskOperator } from "../../../../test/console-operators.ts";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";
import { consoleKey } from "../api/console-api.ts";
import { restoreAnswerWait } from "../testing.ts";
import { answerWait } from "./answers-first.tsx";

const personId = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a66";
const promoted: AdminMe = {
  ...helpdeskOperator,
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage", "people.view", "people.recovery", "people.erase"],
};
const phone: WifiPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6166",
  name: "Телефон",
  identity: "oksana+k2m4p6@kpi.ua",
  createdAt: "2026-11-01T08:00:00Z",
  lastUsedAt: null,
  uses: [],
  sessions: [],
};
const devices: AdminWifi = { passwords: [phone], wifiOff: false };

/** Every console answer read again, as after any action of the console (admin-api.ts); resolves once they are in. */
const readAgain = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: consoleKey });

/**
 * A helpdesk operator on a person's page, where the server answers by who holds which role now: `world` is changed
 * by the test between readings, as another admin would change it.
 */
interface World {
  operator: AdminMe;
  personRoles: OperatorRoleName[];
}

function openPerson(world: World) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(world.operator),
    "GET /api/admin/applications": () => json({ applications: [] }),
    [`GET /api/admin/people/${personId}`]: () =>
      json(personDetail(personId, { username: "oksana", fullName: "Коваль Оксана", roles: world.personRoles })),
    [`GET /api/admin/people/${personId}/wifi`]: () =>
      world.personRoles.includes("admin") && !world.operator.roles.includes("admin")
        ? apiError("admin.person_outranks_operator")
        : json(devices),
  });
  const wifiReads = () => calls.mock.calls.filter(([input]) => String(input).endsWith("/wifi")).length;
  return { ...renderApp(`/en/admin/people/${personId}`), wifiReads };
}

/**
 * A refusal for a role (the person outranks the operator, the operator's roles do not allow it) is not asked again
 * while the roles stand (refused-reads.test.tsx), but it is once either side's roles change: a promotion shows in the
 * open console without a reload, and a refusal that came after the devices hides them.
 */
describe("refusals for a role last while the roles do", () => {
  restoreAnswerWait();

  it.each([
    ["the helpdesk operator looking is made an admin", (world: World) => Object.assign(world, { operator: promoted })],
    ["the person is no longer an admin", (world: World) => Object.assign(world, { personRoles: [] })],
  ])("asks for an admin's Wi-Fi again once %s", async (_change, change) => {
    answerWait.ms = 60_000;
    const world: World = { operator: helpdeskOperator, personRoles: ["admin"] };
    const { queryClient, wifiReads } = openPerson(world);
    const section = await screen.findByTestId("person-wifi");
    await waitFor(() => expect(within(section).getByTestId("person-wifi-failed")).toBeVisible());
    expect(section).toHaveTextContent("Only an admin sees");

    change(world);
    await readAgain(queryClient);
    await waitFor(() => expect(within(section).getByText("Телефон")).toBeVisible());
    expect(within(section).queryByTestId("person-wifi-failed")).toBeNull();
    expect(wifiReads()).toBe(2);
  });

  it("stops showing a person's devices once they are made an admin above the operator", async () => {
    answerWait.ms = 60_000;
    const world: World = { operator: helpdeskOperator, personRoles: [] };
    const { queryClient } = openPerson(world);
    const section = await screen.findByTestId("person-wifi");
    await waitFor(() => expect(within(section).getByText("Телефон")).toBeVisible());

    world.personRoles = ["admin"];
    await readAgain(queryClient);
    await waitFor(() => expect(within(section).getByTestId("person-wifi-failed")).toBeVisible());
    expect(section).toHaveTextContent("Only an admin sees");
    expect(within(section).queryByText("Телефон")).toBeNull();
  });
});

describe("the people list whose first read fails", () => {
  it("says it could not be read instead of holding a count's place or saying that nobody matches", async () => {
    let failing = true;
    const page: PeoplePage = { people: [], page: 1, hasMore: false, total: 0, totalCapped: false };
    mockFetch({
      "GET /api/admin/me": () => json(helpdeskOperator),
      "GET /api/admin/applications": () => json({ applications: [] }),
      "GET /api/admin/people": () => (failing ? apiError("service.database_unavailable") : json(page)),
    });
    const { queryClient } = renderApp("/en/admin");
    expect(await screen.findByTestId("people-failed")).toHaveTextContent("The people list could not be read.");
    expect(screen.getByTestId("people-failed")).toHaveAttribute("role", "alert");
    expect(screen.queryByTestId("people-count-loading")).toBeNull();
    expect(screen.queryByText("Nobody matches.")).toBeNull();

    failing = false;
    await readAgain(queryClient);
    expect(await screen.findByTestId("people-count")).toHaveTextContent("0 people");
    expect(screen.getByText("Nobody matches.")).toBeVisible();
  });
});
