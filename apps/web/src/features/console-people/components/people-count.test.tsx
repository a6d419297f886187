import type { PeoplePage } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { PeopleCount } from "./people-count.tsx";

async function showCount(total: number, totalCapped: boolean, language: "uk" | "en") {
  await initTestI18n(language);
  const page: PeoplePage = { people: [], page: 1, hasMore: totalCapped, total, totalCapped };
  renderWithProviders(<PeopleCount page={page} pending={false} error={null} />, `/${language}/admin`);
}

/** Issue 36: the people list says how many match, exactly up to the server's cap and "more than" past it. */
describe("the console's people count", () => {
  it("shows an exact count with the language's plural", async () => {
    await showCount(1, false, "en");
    expect(await screen.findByTestId("people-count")).toHaveTextContent(/^1 person$/);
  });

  it("says people in Ukrainian by the number's form", async () => {
    await showCount(3, false, "uk");
    expect(await screen.findByTestId("people-count")).toHaveTextContent(/^3 людини$/);
  });

  it("says more than the cap, digits grouped, when the server stopped counting", async () => {
    await showCount(1000, true, "en");
    expect(await screen.findByTestId("people-count")).toHaveTextContent(/^More than 1,000 people/);
  });

  it("groups digits the Ukrainian way past the cap", async () => {
    await showCount(1000, true, "uk");
    expect(await screen.findByTestId("people-count")).toHaveTextContent(/^Понад 1\s000 людей/);
  });
});
