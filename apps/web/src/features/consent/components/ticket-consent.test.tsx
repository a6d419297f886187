import type { ConsentOutcome, TicketConsentDetails } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const id = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const details: TicketConsentDetails = {
  application: { title: "Розклад", description: "Розклад занять групи" },
  data: ["identifier", "name", "recordIds", "roles", "signInMethod"],
  person: { name: student.fullName },
  reviewed: true,
  publisher: {
    homePageUrl: "https://timetable.example.edu/",
    privacyPolicyUrl: "https://timetable.example.edu/privacy",
    owners: [{ name: "Олена Ковальчук", email: "o.kovalchuk@kpi.ua" }],
  },
};

/** Issue 56: a community application's ticket link waits on the consent screen. */
describe("the consent screen on the ticket path", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says what the ticket carries, that the university reviewed it and who runs it; Allow follows the answer", async () => {
    let answered: unknown;
    const outcome: ConsentOutcome = { redirectTo: "https://timetable.example.edu/cb?ticketId=t1&state=s" };
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/app-consent/${id}`]: () => json(details),
      [`POST /api/app-consent/${id}`]: (_url, init) => {
        answered = JSON.parse(String(init.body));
        return json(outcome);
      },
    });
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => {});
    renderApp(`/uk/consent?ticket=${id}`);
    expect(await screen.findByRole("heading", { name: "Вхід до «Розклад»" })).toBeVisible();
    const items = screen.getByTestId("consent-scopes");
    expect(items).toHaveTextContent("Ваш постійний ідентифікатор у KPI ID");
    expect(items).toHaveTextContent("Номер студентського квитка та табельний номер працівника");
    expect(items).not.toHaveTextContent("РНОКПП");
    expect(screen.getByTestId("consent-reviewed")).toHaveTextContent("Перевірено університетом");
    expect(screen.queryByTestId("consent-not-reviewed")).not.toBeInTheDocument();
    const publisher = screen.getByTestId("consent-publisher");
    expect(publisher).toHaveTextContent("Олена Ковальчук");
    expect(screen.getByRole("link", { name: "o.kovalchuk@kpi.ua" })).toHaveAttribute(
      "href",
      "mailto:o.kovalchuk@kpi.ua",
    );
    expect(screen.getByRole("link", { name: "Політика конфіденційності" })).toHaveAttribute(
      "href",
      "https://timetable.example.edu/privacy",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Дозволити" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(outcome.redirectTo));
    expect(answered).toEqual({ allow: true });
  });

  it("warns about an application not reviewed yet and names the tax id, in English; Deny goes to the apps page", async () => {
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/app-consent/${id}`]: () =>
        json({
          ...details,
          reviewed: false,
          data: [...details.data, "taxId"],
          publisher: { homePageUrl: "", privacyPolicyUrl: "", owners: [{ name: "Owner", email: "" }] },
        }),
      [`POST /api/app-consent/${id}`]: () => json({ redirectTo: "/en/apps" }),
    });
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => {});
    renderApp(`/en/consent?ticket=${id}`);
    expect(await screen.findByTestId("consent-not-reviewed")).toHaveTextContent("Not reviewed by the university");
    expect(screen.getByTestId("consent-scopes")).toHaveTextContent("Your taxpayer number (RNOKPP)");
    expect(screen.getByTestId("consent-publisher")).toHaveTextContent("gives no home page or privacy policy");
    await userEvent.setup().click(screen.getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/en/apps"));
  });

  it("says the request is gone when it expired or was answered", async () => {
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/app-consent/${id}`]: () => apiError("consent.request_not_found"),
    });
    renderApp(`/uk/consent?ticket=${id}`);
    expect(await screen.findByTestId("consent-error")).toHaveTextContent("Запит на вхід застарів.");
  });
});
