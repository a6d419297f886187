import type { DeveloperApplication } from "@kpi-id/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { sampleDeveloperApplication } from "../../../../test/developers.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ReviewSection } from "./review-section.tsx";

async function review(language: "uk" | "en", application: DeveloperApplication) {
  await initTestI18n(language);
  renderWithProviders(<ReviewSection application={application} />, `/${language}/`);
}

const follows = (first: Element, second: Element) =>
  Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);

/** Issue 60: the owner reads what the operators will check before asking them to, not after a refusal. */
describe("the review checklist on the developers' page", () => {
  it("lists the five checks above the request form of an application in testing, in English", async () => {
    await review("en", sampleDeveloperApplication);
    const checklist = await screen.findByTestId("review-checklist");
    expect(within(checklist).getByRole("heading", { name: "What the review checks" })).toBeInTheDocument();
    const checks = within(checklist).getAllByRole("listitem");
    expect(checks.map((check) => check.textContent)).toEqual([
      "The names and description say truthfully what the application is, and look like no official university service.",
      "Every address belongs to you; http ones are only this computer's (localhost, 127.0.0.1).",
      "It asks only for the data it needs, and says why below.",
      "A home page and a privacy policy say who runs it and what it does with the data.",
      "It works: you and your testers signed in to it.",
    ]);
    const ask = screen.getByRole("button", { name: "Request review" });
    expect(follows(checklist, screen.getByLabelText("What the application is for"))).toBe(true);
    expect(follows(checklist, ask)).toBe(true);
  });

  it("shows it again after a refusal, in Ukrainian, so the owner checks before asking anew", async () => {
    await review("uk", {
      ...sampleDeveloperApplication,
      lifecycle: "rejected",
      review: {
        status: "rejected",
        purpose: "Розклад для кожної групи",
        dataNeeded: "Ім'я, щоб привітати",
        reason: "Немає політики конфіденційності",
        requestedAt: "2026-03-02T09:00:00.000Z",
        decidedAt: "2026-03-03T09:00:00.000Z",
      },
    });
    const checklist = await screen.findByTestId("review-checklist");
    expect(checklist).toHaveTextContent("Що перевіряють");
    expect(within(checklist).getAllByRole("listitem")).toHaveLength(5);
    expect(screen.getByTestId("review-rejected")).toHaveTextContent("Немає політики конфіденційності");
  });

  it("is gone while the request waits, once the application is live, and while it is suspended", async () => {
    await initTestI18n("en");
    for (const application of [
      { ...sampleDeveloperApplication, lifecycle: "in_review" as const },
      { ...sampleDeveloperApplication, lifecycle: "live" as const },
      { ...sampleDeveloperApplication, suspended: true },
    ]) {
      const view = renderWithProviders(<ReviewSection application={application} />, "/en/");
      await screen.findByRole("heading", { name: "Going live" });
      expect(screen.queryByTestId("review-checklist")).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Request review" })).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
