import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { DangerSection } from "./danger-section.tsx";

const signOutPath = `/api/developers/applications/${id}/sign-everyone-out`;

async function dangerSection(language: "uk" | "en", answer: () => Response) {
  const sent: { path: string; body: unknown }[] = [];
  mockFetch({
    [`POST ${signOutPath}`]: async (url, init) => {
      sent.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      return answer();
    },
  });
  await initTestI18n(language);
  renderWithProviders(<DangerSection application={sampleDeveloperApplication} />, `/${language}/`);
  return { sent, user: userEvent.setup() };
}

/** Issue 60: "sign everyone out of my application" asks first, then ends every token and consent it holds. */
describe("signing everyone out of an application", () => {
  it("asks first, calls the server once confirmed and says it is done, in English", async () => {
    const { sent, user } = await dangerSection("en", () => json({ ok: true, ended: 12 }));
    await user.click(await screen.findByRole("button", { name: "Sign everyone out" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign everyone out of this application?" });
    expect(dialog).toHaveTextContent("asked for their consent again. The application itself stays.");
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Sign everyone out" }));
    await waitFor(() => expect(sent).toEqual([{ path: signOutPath, body: {} }]));
    expect(await screen.findByText("Everyone is signed out of the application.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("does nothing when the owner cancels, in Ukrainian", async () => {
    const { sent, user } = await dangerSection("uk", () => json({ ok: true, ended: 0 }));
    await user.click(await screen.findByRole("button", { name: "Вивести всіх" }));
    const dialog = await screen.findByRole("dialog", { name: "Вивести всіх із цього застосунку?" });
    await user.click(within(dialog).getByRole("button", { name: "Скасувати" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(sent).toEqual([]);
    expect(screen.queryByText("Усіх виведено із застосунку.")).not.toBeInTheDocument();
  });

  it("says why when the server refuses, and never that everyone is out, in Ukrainian", async () => {
    const { sent, user } = await dangerSection("uk", () => apiError("developer.application_not_found"));
    await user.click(await screen.findByRole("button", { name: "Вивести всіх" }));
    const dialog = await screen.findByRole("dialog", { name: "Вивести всіх із цього застосунку?" });
    await user.click(within(dialog).getByRole("button", { name: "Вивести всіх" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(await screen.findByText("Застосунок не знайдено серед ваших.")).toBeInTheDocument();
    expect(screen.queryByText("Усіх виведено із застосунку.")).not.toBeInTheDocument();
  });
});
