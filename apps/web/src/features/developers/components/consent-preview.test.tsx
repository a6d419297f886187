import type { DeveloperApplication } from "@kpi-id/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { sampleDeveloperApplication } from "../../../../test/developers.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ConsentPreview } from "./consent-preview.tsx";

/** Issue 60: the owner sees the consent screen as a person will, before anyone signs in. */
describe("the consent screen preview on the developers' page", () => {
  async function preview(language: "uk" | "en", application: DeveloperApplication) {
    await initTestI18n(language);
    renderWithProviders(<ConsentPreview application={application} />, `/${language}/`);
    const name = { en: "Preview of the consent screen", uk: "Попередній перегляд запиту згоди" }[language];
    return screen.findByRole("figure", { name });
  }

  const items = (figure: HTMLElement) =>
    within(within(figure).getByTestId("consent-scopes"))
      .getAllByRole("listitem")
      .map((item) => item.textContent);

  it("names the application in English and lists, scope by scope, the data it asks for", async () => {
    const figure = await preview("en", {
      ...sampleDeveloperApplication,
      description: "Розклад занять",
      descriptionEn: "Class timetables for every group",
      scopes: ["openid", "profile", "email"],
    });
    expect(figure).toHaveTextContent("Sign in to “Timetable”");
    expect(figure).toHaveTextContent("Class timetables for every group");
    expect(figure).toHaveTextContent("“Timetable” asks for access to:");
    expect(items(figure)).toEqual(["Your permanent KPI ID identifier", "Your full name", "Your email address"]);
    expect(figure).not.toHaveTextContent("student ID");
  });

  it("names it in Ukrainian and adds the records and offline access when those scopes are asked for", async () => {
    const figure = await preview("uk", {
      ...sampleDeveloperApplication,
      scopes: ["openid", "kpi", "offline_access"],
    });
    expect(figure).toHaveTextContent("Вхід до «Розклад»");
    expect(items(figure)).toEqual([
      "Ваш постійний ідентифікатор у KPI ID",
      "Номер студентського квитка та табельний номер працівника",
      "Доступ до цих даних, коли ви не в мережі (доки ви його не відкличете)",
    ]);
    expect(figure).not.toHaveTextContent("Прізвище та ім'я");
  });

  it("falls back to the Ukrainian name in English when there is no English one", async () => {
    const figure = await preview("en", { ...sampleDeveloperApplication, titleEn: "" });
    expect(figure).toHaveTextContent("Sign in to “Розклад”");
  });
});
