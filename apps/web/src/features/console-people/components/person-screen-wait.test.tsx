import type { AdminMe, AdminWifi } from "@kpi-id/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { answerWait, consoleKey } from "@/features/console-shell/index.ts";
import { restoreAnswerWait } from "@/features/console-shell/testing.ts";
import { apiError, type Handler, heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { personDetail } from "../../../../test/person-detail.ts";
import { renderApp } from "../../../../test/render.tsx";

const id = "0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a63";
const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["people.view", "people.recovery", "people.erase"],
};
const wifi: AdminWifi = { wifiOff: false, passwords: [] };
const erased = personDetail(id, { fullName: "Видалена особа", erasedAt: "2026-11-20T10:00:00.000Z" });

/** The person screen with the answers given; `asked` counts the requests whose path ends so. */
function openPerson(person: Handler, wifiAnswer: Handler) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/people/${id}`]: person,
    [`GET /api/admin/people/${id}/wifi`]: wifiAnswer,
  });
  const { queryClient } = renderApp(`/en/admin/people/${id}`);
  const asked = (path: string) => calls.mock.calls.filter(([input]) => String(input).endsWith(path)).length;
  return { queryClient, asked };
}

/** Every console answer read again, as after any action of the console (admin-api.ts); resolves once they are in. */
const readAgain = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: consoleKey });

/**
 * The person screen waits for the person's Wi-Fi answer (answers-first.tsx), but not where there is none to give:
 * an erased person's stub (409) and an unknown id (404) are not asked again once the person's answer says so, and
 * the screen never waits for a question it does not ask. Once shown, a screen stays shown through a refetch.
 */
describe("the person screen's wait for the Wi-Fi answer, where there is none", () => {
  restoreAnswerWait();

  it("shows an erased person's stub at once, whatever the Wi-Fi answer does", async () => {
    // Long enough for a first render that compiles the console's modules on a loaded machine.
    answerWait.ms = 60_000;
    const never = heldAnswer(() => apiError("admin.person_erased"));
    openPerson(() => json(erased), never.handler);
    const name = await screen.findByTestId("person-name");
    await waitFor(() => expect(name).toBeVisible());
    expect(screen.getByTestId("person-erased")).toBeVisible();
    expect(screen.queryByTestId("person-waiting")).not.toBeInTheDocument();
    expect(screen.queryByTestId("person-wifi")).not.toBeInTheDocument();
  });

  it("does not ask for an erased person's Wi-Fi again once their answer says they are erased", async () => {
    answerWait.ms = 60_000;
    const { queryClient, asked } = openPerson(
      () => json(erased),
      () => apiError("admin.person_erased"),
    );
    await waitFor(() => expect(screen.getByTestId("person-name")).toBeVisible());
    // The first question went out beside the person's, before their answer was in.
    await waitFor(() => expect(asked("/wifi")).toBe(1));
    await readAgain(queryClient);
    expect(asked(`/people/${id}`)).toBe(2);
    expect(asked("/wifi")).toBe(1);
    expect(screen.getByTestId("person-name")).toBeVisible();
  });

  it("does not ask for an unknown person's Wi-Fi again, and says there is no such person", async () => {
    answerWait.ms = 60_000;
    const { queryClient, asked } = openPerson(
      () => apiError("admin.person_not_found"),
      () => apiError("admin.person_not_found"),
    );
    expect(await screen.findByText("There is no such person.")).toBeVisible();
    await waitFor(() => expect(asked("/wifi")).toBe(1));
    await readAgain(queryClient);
    expect(asked(`/people/${id}`)).toBe(2);
    expect(asked("/wifi")).toBe(1);
  });

  it("keeps the screen shown while its answers are read again, however long the Wi-Fi takes then", async () => {
    answerWait.ms = 60_000;
    const later = heldAnswer(() => json(wifi));
    let hold = false;
    const { queryClient, asked } = openPerson(
      () => json(personDetail(id, { fullName: "Коваль Оксана" })),
      (url, init) => (hold ? later.handler(url, init) : json(wifi)),
    );
    const name = await screen.findByTestId("person-name");
    await waitFor(() => expect(name).toBeVisible());
    hold = true;
    const before = { person: asked(`/people/${id}`), wifi: asked("/wifi") };
    const refetch = queryClient.invalidateQueries({ queryKey: consoleKey });
    await waitFor(() => expect(asked(`/people/${id}`)).toBe(before.person + 1));
    await waitFor(() => expect(asked("/wifi")).toBe(before.wifi + 1));
    // The second Wi-Fi answer is still out: the screen is not held again for it.
    expect(name).toBeVisible();
    expect(screen.queryByTestId("person-waiting")).not.toBeInTheDocument();
    expect(screen.getByTestId("person-wifi-state")).toBeVisible();
    later.answer();
    await refetch;
    expect(name).toBeVisible();
  });

  it("asks for the Wi-Fi once when it answers before the person: its section reads the screen's answer", async () => {
    answerWait.ms = 60_000;
    const personLater = heldAnswer(() => json(personDetail(id, { fullName: "Коваль Оксана" })));
    const { asked } = openPerson(personLater.handler, () => json(wifi));
    await waitFor(() => expect(asked("/wifi")).toBe(1));
    // The Wi-Fi's answer is in before the person's, so the section mounts onto an answer already there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    personLater.answer();
    const state = await screen.findByTestId("person-wifi-state");
    await waitFor(() => expect(state).toBeVisible());
    expect(asked("/wifi")).toBe(1);
  });

  it("asks for the Wi-Fi once when it is refused before the person answers: the refusal is the section's answer", async () => {
    answerWait.ms = 60_000;
    const personLater = heldAnswer(() => json(personDetail(id, { fullName: "Коваль Оксана" })));
    const { asked } = openPerson(personLater.handler, () => apiError("admin.person_outranks_operator"));
    await waitFor(() => expect(asked("/wifi")).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    personLater.answer();
    const failed = await screen.findByTestId("person-wifi-failed");
    await waitFor(() => expect(failed).toBeVisible());
    expect(failed).toHaveTextContent("Only an admin sees this person's Wi-Fi devices");
    expect(asked("/wifi")).toBe(1);
  });
});
