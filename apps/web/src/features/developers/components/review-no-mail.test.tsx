import type { DeveloperApplication } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

/** The application as the server answers it, on the developers' page. */
async function open(language: "uk" | "en", application: DeveloperApplication) {
  mockFetch({
    "GET /user": () => json(student),
    [`GET /api/developers/applications/${id}`]: () => json(application),
    [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
  });
  renderApp(`/${language}/developers/${id}`);
  await screen.findByTestId("review-checklist");
}

/**
 * Issue 60: with no confirmed address the operators' answer cannot be mailed; the page says so beside the review
 * request when, and only when, the server says the mail is not reachable.
 */
describe("the no-mail notice beside the review request", () => {
  it("says in English that the answer will only be on the page", async () => {
    await open("en", { ...sampleDeveloperApplication, mailReachable: false });
    const notice = screen.getByTestId("review-no-mail");
    expect(notice).toHaveTextContent("The answer cannot be e-mailed to you");
    expect(notice).toHaveTextContent("Your account has no confirmed e-mail address");
  });

  it("says it in Ukrainian too", async () => {
    await open("uk", { ...sampleDeveloperApplication, mailReachable: false });
    expect(screen.getByTestId("review-no-mail")).toHaveTextContent("Відповідь не надійде вам листом");
  });

  it("is not there when the server can mail the answer", async () => {
    await open("en", { ...sampleDeveloperApplication, mailReachable: true });
    expect(screen.queryByTestId("review-no-mail")).not.toBeInTheDocument();
    expect(screen.queryByText("The answer cannot be e-mailed to you")).not.toBeInTheDocument();
  });
});
