import type { AdminMe, ApplicationAccess } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applicationDetail } from "../../../../test/application-detail.ts";
import { heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { onePersonPage } from "../../../../test/people-page.ts";
import { renderApp } from "../../../../test/render.tsx";
import { follows, restoreAnswerWait } from "../testing.ts";
import { answerWait } from "./answers-first.tsx";

const appId = "7c2f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6d";
// No service.view: the first screen waits for no service answer, and shows the list at once.
const operator: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["people.view", "apps.view", "apps.manage"],
};
const access: ApplicationAccess = { rules: [], exclusions: [], people: 412 };

const placeholders = (table: HTMLElement) => within(table).queryAllByTestId("row-placeholder");

/**
 * The people list and an application's "who has access" grew from one "Loading…" row into a page of rows and
 * pushed their paging buttons down under a tap. While their first answer is read they hold about its rows.
 */
describe("the console's lists while their first answer is read", () => {
  restoreAnswerWait();

  it("holds a page of people's rows and the count's line, the paging buttons below them", async () => {
    const list = heldAnswer(() => json(onePersonPage));
    mockFetch({
      "GET /api/admin/me": () => json(operator),
      "GET /api/admin/people": list.handler,
      "GET /api/admin/applications": () => json({ applications: [] }),
    });
    renderApp("/en/admin");
    const table = await screen.findByTestId("people-table");
    expect(placeholders(table)).toHaveLength(25);
    // Only the rows are busy: words inside a busy element may go unread (JAWS, VoiceOver).
    const rows = within(table).getByRole("table");
    expect(rows).not.toHaveAttribute("aria-busy");
    expect(rows.querySelector("tbody")).toHaveAttribute("aria-busy", "true");
    // Said once to a screen reader, outside what is busy, and as the table's description; the placeholder rows are
    // blank rows it need not read through.
    const words = within(table).getByText("Loading…");
    expect(words.closest('[aria-busy="true"]')).toBeNull();
    expect(rows).toHaveAccessibleDescription("Loading…");
    expect(placeholders(table).filter((row) => row.getAttribute("aria-hidden") === "true")).toHaveLength(25);
    expect(screen.getByTestId("people-count-loading")).toBeInTheDocument();
    expect(follows(table, screen.getByRole("button", { name: "Next" }))).toBe(true);

    list.answer();
    expect(await within(table).findByRole("link", { name: "Олена Коваленко" })).toBeVisible();
    expect(placeholders(table)).toHaveLength(0);
    expect(rows.querySelector("tbody")).not.toHaveAttribute("aria-busy");
    expect(within(table).queryByText("Loading…")).not.toBeInTheDocument();
    expect(rows).not.toHaveAccessibleDescription();
    expect(screen.getByTestId("people-count")).toHaveTextContent("1 person");
    expect(screen.queryByTestId("people-count-loading")).not.toBeInTheDocument();
  });

  it.each([
    ["the first page", "", 50],
    ["the last page, of the 12 left after eight", "?page=9", 12],
    ["a search, which the count says nothing of", "?q=kov", 1],
  ])("holds as many rows of who has access as the rules' count gives for %s", async (_, search, rows) => {
    const list = heldAnswer(() => json({ people: [], page: 1, hasMore: false }));
    mockFetch({
      "GET /api/admin/me": () => json(operator),
      [`GET /api/admin/applications/${appId}`]: () =>
        json(applicationDetail({ id: appId, name: "moodle", title: "Мудл" })),
      [`GET /api/admin/applications/${appId}/access`]: () => json(access),
      [`GET /api/admin/applications/${appId}/cas-services`]: () =>
        json({ serverUrl: "http://localhost:3000/cas", services: [] }),
      [`GET /api/admin/applications/${appId}/people`]: list.handler,
    });
    renderApp(`/en/admin/applications/${appId}${search}`);
    const table = await screen.findByTestId("access-table");
    await waitFor(() => expect(table).toBeVisible());
    expect(placeholders(table)).toHaveLength(rows);
    list.answer();
    expect(await within(table).findByText("Nobody matches.")).toBeVisible();
    expect(placeholders(table)).toHaveLength(0);
  });

  it("keeps who has access at one row when the rules' count comes after the placeholder shows", async () => {
    // The screen stops waiting for the rules at once and shows the list's placeholder before their count is in.
    answerWait.ms = 50;
    const rules = heldAnswer(() => json(access));
    const list = heldAnswer(() => json({ people: [], page: 1, hasMore: false }));
    mockFetch({
      "GET /api/admin/me": () => json(operator),
      [`GET /api/admin/applications/${appId}`]: () =>
        json(applicationDetail({ id: appId, name: "moodle", title: "Мудл" })),
      [`GET /api/admin/applications/${appId}/access`]: rules.handler,
      [`GET /api/admin/applications/${appId}/cas-services`]: () =>
        json({ serverUrl: "http://localhost:3000/cas", services: [] }),
      [`GET /api/admin/applications/${appId}/people`]: list.handler,
    });
    renderApp(`/en/admin/applications/${appId}`);
    const table = await screen.findByTestId("access-table");
    await waitFor(() => expect(table).toBeVisible());
    expect(placeholders(table)).toHaveLength(1);
    rules.answer();
    expect(await screen.findByTestId("rules-people")).toHaveTextContent("412 people");
    // It grew to 50 rows here, and the paging buttons went down under a tap.
    expect(placeholders(table)).toHaveLength(1);
    list.answer();
    expect(await within(table).findByText("Nobody matches.")).toBeVisible();
    expect(placeholders(table)).toHaveLength(0);
  });
});
