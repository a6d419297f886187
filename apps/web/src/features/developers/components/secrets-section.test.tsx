import type { DeveloperApplication } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { SecretsSection } from "./secrets-section.tsx";

// Noon UTC: the day shown is the same in every time zone the tests may run in.
const twoSecrets: DeveloperApplication = {
  ...sampleDeveloperApplication,
  secrets: [
    { which: "current", createdAt: "2026-03-05T12:00:00.000Z", lastUsedAt: "2026-03-06T12:00:00.000Z", endsAt: null },
    {
      which: "previous",
      createdAt: "2026-03-01T12:00:00.000Z",
      lastUsedAt: null,
      endsAt: "2026-03-08T12:00:00.000Z",
    },
  ],
};

async function secrets(language: "uk" | "en", application: DeveloperApplication) {
  const sent: unknown[] = [];
  const onSecret = vi.fn();
  mockFetch({
    [`POST /api/developers/applications/${id}/secret`]: async (_url, init) => {
      sent.push(JSON.parse(String(init.body)));
      return json({ application, secret: "the-new-secret" });
    },
  });
  await initTestI18n(language);
  renderWithProviders(<SecretsSection application={application} onSecret={onSecret} />, `/${language}/`);
  return { sent, onSecret, user: userEvent.setup() };
}

/** Issue 60: two secrets at once, when each was last used, and how long a replaced one keeps working. */
describe("the application's secrets on the developers' page", () => {
  it("shows when each secret was last used, or that it never was, and when the replaced one stops, in English", async () => {
    await secrets("en", twoSecrets);
    const current = await screen.findByTestId("secret-current");
    expect(current).toHaveTextContent("Current secret");
    expect(within(current).getByTestId("secret-last-used")).toHaveTextContent(/^Last used: 6 Mar 2026/);
    const previous = screen.getByTestId("secret-previous");
    expect(previous).toHaveTextContent("Replaced secret (still working)");
    expect(within(previous).getByTestId("secret-last-used")).toHaveTextContent("Last used: never");
    expect(within(previous).getByTestId("secret-ends")).toHaveTextContent(/^Stops working 8 Mar 2026/);
    expect(screen.getByRole("button", { name: "End the replaced secret now" })).toBeInTheDocument();
  });

  it("says a secret was never used in Ukrainian", async () => {
    await secrets("uk", sampleDeveloperApplication);
    expect(await screen.findByTestId("secret-last-used")).toHaveTextContent("Востаннє використано: ніколи");
    expect(screen.queryByTestId("secret-previous")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Припинити замінений секрет зараз" })).not.toBeInTheDocument();
  });

  it("offers an overlap from none to 7 days, a day by default, in English", async () => {
    await secrets("en", twoSecrets);
    const overlap = await screen.findByLabelText("When replacing, keep the old secret working for");
    const choices = within(overlap).getAllByRole("option");
    expect(choices.map((choice) => choice.textContent)).toEqual([
      "no time: it stops at once",
      "1 hour",
      "1 day",
      "3 days",
      "7 days",
    ]);
    expect(overlap).toHaveDisplayValue("1 day");
  });

  it("replaces the secret with the overlap chosen, saying so before, in Ukrainian", async () => {
    const { sent, onSecret, user } = await secrets("uk", twoSecrets);
    await user.selectOptions(await screen.findByLabelText("Під час заміни старий секрет діятиме ще"), "7 днів");
    await user.click(screen.getByRole("button", { name: "Замінити секрет" }));
    const dialog = await screen.findByRole("dialog", { name: "Замінити секрет?" });
    expect(dialog).toHaveTextContent("Чинний діятиме поруч із ним ще 7 днів");
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Замінити" }));
    await waitFor(() => expect(sent).toEqual([{ overlapHours: 168 }]));
    await waitFor(() => expect(onSecret).toHaveBeenCalledWith("the-new-secret"));
  });

  it("warns that the current secret stops at once when no overlap is chosen, in English", async () => {
    const { sent, user } = await secrets("en", twoSecrets);
    await user.selectOptions(
      await screen.findByLabelText("When replacing, keep the old secret working for"),
      "no time: it stops at once",
    );
    await user.click(screen.getByRole("button", { name: "Replace the secret" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace the secret?" });
    expect(dialog).toHaveTextContent("The current secret stops working at once");
    await user.click(within(dialog).getByRole("button", { name: "Replace" }));
    await waitFor(() => expect(sent).toEqual([{ overlapHours: 0 }]));
  });

  it("shows a public client no secret at all, in English", async () => {
    await secrets("en", { ...sampleDeveloperApplication, clientType: "public", secrets: [] });
    expect(await screen.findByTestId("no-secret")).toHaveTextContent("A public client has no secret");
    expect(screen.queryByRole("button", { name: "Replace the secret" })).not.toBeInTheDocument();
  });
});
