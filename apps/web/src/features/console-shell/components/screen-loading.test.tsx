import type { AdminMe } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp, renderWithProviders } from "../../../../test/render.tsx";
import { restoreAnswerWait } from "../testing.ts";
import { answerWait, ScreenLoading } from "./answers-first.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a64";
const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["people.view", "people.recovery"],
};

/** The console screens' placeholder on the page: the status around a skeleton. */
const placeholder = () =>
  Array.from(document.querySelectorAll('[role="status"]')).find((status) => status.querySelector(".animate-pulse"));

/**
 * A status mounted with its words in is often not read: a screen reader hears of a new region, not of a change in
 * one. The placeholder's status is in the page first, empty, and its words go in after.
 */
describe("the console screens' loading placeholder", () => {
  restoreAnswerWait();

  it("is an empty status when it enters the page, and says 'Loading…' after", async () => {
    renderWithProviders(<ScreenLoading className="h-64 w-full" testId="placeholder" />, "/uk/admin");
    const status = screen.getByTestId("placeholder");
    expect(status).toHaveAttribute("role", "status");
    expect(status).toHaveTextContent(/^$/);
    await waitFor(() => expect(status).toHaveTextContent("Завантаження…"));
  });

  // A guard more than a fix: Preact keeps the first placeholder (the first child of what the screen renders in
  // both states), and a change that mounted a second one would have "Loading…" said twice for one screen.
  it("stays one status from the person's read through the wait for their Wi-Fi: 'Loading…' is said once", async () => {
    answerWait.ms = 60_000;
    const person = heldAnswer(() => json(personDetail(id, { fullName: "Коваль Оксана" })));
    const wifi = heldAnswer(() => json({ wifiOff: false, passwords: [] }));
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      [`GET /api/admin/people/${id}`]: person.handler,
      [`GET /api/admin/people/${id}/wifi`]: wifi.handler,
      "GET /api/admin/applications": () => json({ applications: [] }),
    });
    renderApp(`/en/admin/people/${id}`);
    await waitFor(() => expect(placeholder()).toBeDefined());
    const reading = placeholder();
    await waitFor(() => expect(reading).toHaveTextContent("Loading…"));
    person.answer();
    const held = await screen.findByTestId("person-waiting");
    expect(held).toBe(reading);
    expect(held).toHaveTextContent("Loading…");
    wifi.answer();
    await waitFor(() => expect(screen.getByTestId("person-name")).toBeVisible());
    expect(placeholder()).toBeUndefined();
  });
});
