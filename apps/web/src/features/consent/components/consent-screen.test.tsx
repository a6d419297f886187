import type { ConsentDetails } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const details: ConsentDetails = {
  application: { title: "Демо-сайт", description: "" },
  scopes: ["openid", "profile"],
  person: { name: student.fullName },
};

describe("the consent screen", () => {
  it("says the request expired when the server no longer knows the interaction", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/oidc/interaction/u1/details": () => apiError("oidc.interaction_not_found"),
    });
    renderApp("/uk/consent?uid=u1");
    expect(await screen.findByTestId("consent-error")).toHaveTextContent("Запит на вхід застарів.");
  });

  it("shows the message of the code when answering fails (too many requests, with the wait)", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/oidc/interaction/u1/details": () => json(details),
      "POST /api/oidc/interaction/u1/consent": () => apiError("request.rate_limited", { "Retry-After": "90" }),
    });
    renderApp("/en/consent?uid=u1");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Allow" }));
    expect(await screen.findByTestId("consent-answer-error")).toHaveTextContent(
      "Too many requests. Try again in 2 minutes.",
    );
  });
});
