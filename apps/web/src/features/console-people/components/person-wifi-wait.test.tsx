import type { AdminMe, AdminWifi } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { answerWait } from "@/features/console-shell/index.ts";
import { follows, restoreAnswerWait } from "@/features/console-shell/testing.ts";
import { helpdeskOperator } from "../../../../test/console-operators.ts";
import { apiError, heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a62";
const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["people.view", "people.recovery", "people.erase"],
};
const person = personDetail(id, { username: "oksana", fullName: "Коваль Оксана" });
const wifi: AdminWifi = {
  wifiOff: false,
  passwords: [
    {
      id: "3f2504e0-4f89-41d3-9a0c-0305e82c6163",
      name: "Телефон",
      identity: "oksana+k2m4p6@kpi.ua",
      createdAt: "2026-11-01T08:00:00Z",
      lastUsedAt: null,
      uses: [],
      sessions: [],
    },
  ],
};

/** The person screen of an admin (who may erase), its Wi-Fi answer held back until `answer` is called. */
function openPerson(wifiAnswer: () => Response) {
  const { handler, answer } = heldAnswer(wifiAnswer);
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/people/${id}`]: () => json(person),
    [`GET /api/admin/people/${id}/wifi`]: handler,
  });
  renderApp(`/en/admin/people/${id}`);
  return { answer };
}

/** An admin's person screen opened by a helpdesk operator: the server refuses them the admin's Wi-Fi devices. */
function openAsHelpdesk() {
  mockFetch({
    "GET /api/admin/me": () => json(helpdeskOperator),
    [`GET /api/admin/people/${id}`]: () => json(person),
    [`GET /api/admin/people/${id}/wifi`]: () => apiError("admin.person_outranks_operator"),
    "GET /api/admin/applications": () => json({ applications: [] }),
  });
  renderApp(`/en/admin/people/${id}`);
}

/**
 * The Wi-Fi section came after the rest of the person screen and pushed the records, history and erasure down by
 * its height (hundreds of pixels at 390 px), so a tap on "Erase" as it appeared could land elsewhere. The screen
 * shows itself with the section; an answer later than the wait finds the section framed with a placeholder.
 */
describe("the person screen and its Wi-Fi section's own answer", () => {
  restoreAnswerWait();

  it("shows the person only with their Wi-Fi devices, never the erasure button before them", async () => {
    // Long enough for a first render that compiles the console's modules on a loaded machine.
    answerWait.ms = 60_000;
    const { answer } = openPerson(() => json(wifi));
    const name = await screen.findByTestId("person-name");
    expect(name).toHaveTextContent("Коваль Оксана");
    expect(name).not.toBeVisible();
    expect(screen.getByTestId("erase-open")).not.toBeVisible();
    // Held, the screen says so to a screen reader, not only with a grey block.
    expect(screen.getByTestId("person-waiting")).toHaveAttribute("role", "status");
    // Its words go in just after the status (answers-first.tsx), so that a screen reader reads them.
    await waitFor(() => expect(screen.getByTestId("person-waiting")).toHaveTextContent("Loading…"));
    answer();
    const device = await screen.findByTestId("person-wifi-password");
    await waitFor(() => expect(device).toBeVisible());
    expect(screen.getByTestId("erase-open")).toBeVisible();
    expect(follows(screen.getByTestId("person-wifi"), screen.getByTestId("erase-open"))).toBe(true);
    expect(screen.queryByTestId("person-waiting")).not.toBeInTheDocument();
  });

  it("after the wait, shows the screen with the Wi-Fi section's frame and a placeholder, then its devices there", async () => {
    answerWait.ms = 50;
    const { answer } = openPerson(() => json(wifi));
    const erase = await screen.findByTestId("erase-open");
    await waitFor(() => expect(erase).toBeVisible());
    const section = screen.getByTestId("person-wifi");
    expect(section).toHaveAttribute("aria-busy", "true");
    expect(within(section).getByRole("heading", { name: "Wi-Fi (eduroam)" })).toBeVisible();
    expect(within(section).getByTestId("person-wifi-loading")).toBeInTheDocument();
    expect(follows(section, erase)).toBe(true);
    answer();
    expect(await within(section).findByTestId("person-wifi-password")).toHaveTextContent("Телефон");
    expect(section).not.toHaveAttribute("aria-busy");
    expect(within(section).queryByTestId("person-wifi-loading")).not.toBeInTheDocument();
  });

  it("shows the screen when the Wi-Fi devices cannot be read, and says so in their section", async () => {
    answerWait.ms = 60_000;
    const { answer } = openPerson(() => apiError("service.database_unavailable"));
    const name = await screen.findByTestId("person-name");
    expect(name).not.toBeVisible();
    answer();
    await waitFor(() => expect(name).toBeVisible());
    // What failed, then why in the words of the server's code, not "open the page again".
    expect(screen.getByTestId("person-wifi-failed")).toHaveTextContent(
      "The person's Wi-Fi devices could not be read. KPI ID is briefly unavailable.",
    );
    expect(screen.getByTestId("person-wifi")).not.toHaveAttribute("aria-busy");
  });

  it("tells a helpdesk operator on an admin's page that only an admin sees their Wi-Fi devices", async () => {
    answerWait.ms = 60_000;
    openAsHelpdesk();
    const name = await screen.findByTestId("person-name");
    await waitFor(() => expect(name).toBeVisible());
    const section = screen.getByTestId("person-wifi");
    expect(within(section).getByTestId("person-wifi-failed")).toHaveTextContent(
      "Only an admin sees this person's Wi-Fi devices: the person holds a role above yours.",
    );
    // Opening the page again gives the same refusal: the section does not ask for it.
    expect(section).not.toHaveTextContent(/could not be read|again/);
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
  });

  it("says the Wi-Fi section's failure as an alert: a screen reader heard nothing of the line appearing", async () => {
    answerWait.ms = 50;
    const { answer } = openPerson(() => apiError("service.database_unavailable"));
    const section = await screen.findByTestId("person-wifi");
    await waitFor(() => expect(section).toBeVisible());
    // The answer comes after the screen showed: the line takes the placeholder's place in the shown section.
    expect(within(section).queryByRole("alert")).not.toBeInTheDocument();
    answer();
    expect(await within(section).findByRole("alert")).toHaveTextContent(
      "The person's Wi-Fi devices could not be read. KPI ID is briefly unavailable.",
    );
  });

  it("says the refusal to a helpdesk operator as an alert, once, as the held screen shows", async () => {
    answerWait.ms = 60_000;
    openAsHelpdesk();
    const section = await screen.findByTestId("person-wifi");
    await waitFor(() => expect(section).toBeVisible());
    // One alert, the line itself: nothing around it says the same words again.
    expect(within(section).getByRole("alert")).toHaveTextContent("Only an admin sees this person's Wi-Fi devices");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
  });
});
