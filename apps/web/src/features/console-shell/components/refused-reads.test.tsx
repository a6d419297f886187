import { type AdminMe, erasedKinds, type PersonErasureResult } from "@kpi-id/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { helpdeskOperator } from "../../../../test/console-operators.ts";
import { apiError, type Handler, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";
import { consoleKey } from "../api/console-api.ts";
import { restoreAnswerWait } from "../testing.ts";
import { answerWait } from "./answers-first.tsx";

const appId = "7c2f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6c";
const personId = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a65";
const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage", "people.view", "people.recovery", "people.erase"],
};
const person = personDetail(personId, { username: "oksana", fullName: "Коваль Оксана" });

/** Counts the requests made through `calls` whose path ends so. */
const counter = (calls: ReturnType<typeof mockFetch>) => (path: string) =>
  calls.mock.calls.filter(([input]) => new URL(String(input), "http://localhost").pathname.endsWith(path)).length;

/** Every console answer read again, as after any action of the console (admin-api.ts); resolves once they are in. */
const readAgain = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: consoleKey });

/** Lets answers and the renders after them run their course, so that a request they would send is sent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** The application screen of `appId` with the answers given; the people list is empty. */
function openApplication(application: Handler, sections: Handler) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(admin),
    "GET /api/admin/applications": () => json({ applications: [] }),
    [`GET /api/admin/applications/${appId}`]: application,
    [`GET /api/admin/applications/${appId}/access`]: sections,
    [`GET /api/admin/applications/${appId}/cas-services`]: sections,
    [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
  });
  return { ...renderApp(`/en/admin/applications/${appId}`), asked: counter(calls) };
}

/**
 * A request refused for good (no such application, the person erased, a person above the operator) gets the same
 * refusal every time: once the console knows, it does not ask again, not when every answer is read again after an
 * action, nor when the screen opens again. What is asked beside a screen's own answer still goes out beside it.
 */
describe("reads refused for good are not asked again", () => {
  restoreAnswerWait();

  it("asks nothing more of an unknown application once it is known not to exist, its sections included", async () => {
    answerWait.ms = 60_000;
    const { queryClient, router, asked } = openApplication(
      () => apiError("app.not_found"),
      // The sections' first answers failed for a while (the database away), not with the application's 404.
      () => apiError("service.database_unavailable"),
    );
    const reads = () => [asked(`/applications/${appId}`), asked("/access"), asked("/cas-services")];
    expect(await screen.findByText("This application does not exist.")).toBeVisible();
    // Asked beside the application, as ever: the 404 was not known yet.
    expect(reads()).toEqual([1, 1, 1]);

    // Every answer read again, as after an action.
    await readAgain(queryClient);
    await settle();
    expect(reads()).toEqual([1, 1, 1]);

    // Opened again: the screen knows the application is not there, and neither it nor its sections ask.
    await router.navigate("/en/admin/applications");
    await router.navigate(`/en/admin/applications/${appId}`);
    expect(await screen.findByText("This application does not exist.")).toBeVisible();
    await settle();
    expect(reads()).toEqual([1, 1, 1]);
  });

  it("asks beside a known application as before, and reads its rules and CAS services again after an action", async () => {
    answerWait.ms = 60_000;
    const { queryClient, asked } = openApplication(
      () => json(applicationDetail({ id: appId, name: "moodle", title: "Мудл", titleEn: "Moodle" })),
      (url) =>
        url.pathname.endsWith("/access")
          ? json({ rules: [], exclusions: [], people: 0 })
          : json({ serverUrl: "http://localhost:3000/cas", services: [] }),
    );
    const addRule = await screen.findByTestId("rule-add");
    await waitFor(() => expect(addRule).toBeVisible());
    expect([asked("/access"), asked("/cas-services")]).toEqual([1, 1]);
    await readAgain(queryClient);
    expect([asked("/access"), asked("/cas-services")]).toEqual([2, 2]);
  });

  it("does not ask for the Wi-Fi of a person just erased: the section still on screen is not read again", async () => {
    answerWait.ms = 60_000;
    let erased = false;
    const counts = Object.fromEntries(erasedKinds.map((kind) => [kind, 0])) as PersonErasureResult["erased"];
    const calls = mockFetch({
      "GET /api/admin/me": () => json(admin),
      "GET /api/admin/applications": () => json({ applications: [] }),
      [`GET /api/admin/people/${personId}`]: () =>
        json(erased ? personDetail(personId, { erasedAt: "2026-11-28T10:00:00.000Z" }) : person),
      [`GET /api/admin/people/${personId}/wifi`]: () =>
        erased ? apiError("admin.person_erased") : json({ wifiOff: false, passwords: [] }),
      [`POST /api/admin/people/${personId}/erase`]: () => {
        erased = true;
        return json({ done: true, erased: { ...counts, sessions: 1 } } satisfies PersonErasureResult);
      },
    });
    const asked = counter(calls);
    renderApp(`/en/admin/people/${personId}`);
    const erase = await screen.findByTestId("erase-open");
    await waitFor(() => expect(erase).toBeVisible());
    const user = userEvent.setup();
    await user.click(erase);
    await user.type(await screen.findByTestId("erase-confirm-username"), "oksana");
    await user.click(screen.getByTestId("erase-submit"));
    expect(await screen.findByTestId("erasure-done")).toBeVisible();
    await waitFor(() => expect(screen.getByTestId("person-erased")).toBeInTheDocument());
    await settle();
    expect(asked(`/people/${personId}`)).toBe(2);
    expect(asked("/wifi")).toBe(1);
  });

  it("does not ask a helpdesk operator's refused Wi-Fi again after an action refused as well", async () => {
    answerWait.ms = 60_000;
    const calls = mockFetch({
      "GET /api/admin/me": () => json(helpdeskOperator),
      "GET /api/admin/applications": () => json({ applications: [] }),
      [`GET /api/admin/people/${personId}`]: () =>
        json({ ...person, throttle: { failures: 3, lockedUntil: "2026-11-28T10:15:00.000Z" } }),
      [`GET /api/admin/people/${personId}/wifi`]: () => apiError("admin.person_outranks_operator"),
      [`POST /api/admin/people/${personId}/unlock`]: () => apiError("admin.person_outranks_operator"),
    });
    const asked = counter(calls);
    renderApp(`/en/admin/people/${personId}`);
    const section = await screen.findByTestId("person-wifi");
    await waitFor(() => expect(section).toBeVisible());
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("person-sign-in")).getByRole("button", { name: "Unlock" }));
    await user.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(asked("/unlock")).toBe(1));
    await waitFor(() => expect(asked(`/people/${personId}`)).toBe(2));
    await settle();
    expect(asked("/wifi")).toBe(1);
    expect(within(section).getByTestId("person-wifi-failed")).toHaveTextContent("Only an admin sees");
  });
});
