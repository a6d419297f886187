import type { ConsentDetails, SamlConsentDetails } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { apiError, json, mockFetch, publicSettings } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const details: ConsentDetails = {
  application: { title: "Демо-сайт", description: "" },
  scopes: ["openid", "profile"],
  person: { name: student.fullName },
  access: true,
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

  it("lists what a SAML service provider would receive, in the person's language, and follows the answer", async () => {
    const saml: SamlConsentDetails = {
      application: { title: "Zenodo", description: "https://zenodo.org/shibboleth" },
      attributes: ["eduPersonPrincipalName", "mail", "futureAttribute"],
      person: { name: student.fullName },
    };
    let answered: unknown;
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/saml/consent/r1": () => json(saml),
      "POST /api/saml/consent/r1": (_url, init) => {
        answered = JSON.parse(String(init.body));
        return apiError("saml.request_not_found");
      },
    });
    renderApp("/en/consent?saml=r1");
    const items = await screen.findByTestId("consent-scopes");
    expect(items).toHaveTextContent("A pseudonymous identifier of yours for this service only");
    expect(items).toHaveTextContent("Your permanent KPI ID identifier (eduPersonPrincipalName)");
    expect(items).toHaveTextContent("Your email address");
    expect(items).toHaveTextContent("futureAttribute");
    expect(screen.getByRole("heading", { name: "Sign in to “Zenodo”" })).toBeVisible();
    await userEvent.setup().click(screen.getByRole("button", { name: "Deny" }));
    expect(await screen.findByTestId("consent-answer-error")).toBeVisible();
    expect(answered).toEqual({ allow: false });
  });

  it("tells a person without access who to ask, and goes back to the application only when asked", async () => {
    let answered: unknown;
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/oidc/interaction/u2/details": () => json({ ...details, access: false } satisfies ConsentDetails),
      "POST /api/oidc/interaction/u2/consent": (_url, init) => {
        answered = JSON.parse(String(init.body));
        return json({ redirectTo: "/oidc/auth/u2" });
      },
    });
    renderApp("/uk/consent?uid=u2");
    expect(await screen.findByRole("heading", { name: "У вас немає доступу до «Демо-сайт»" })).toBeVisible();
    expect(screen.getByRole("link", { name: publicSettings.supportEmail })).toHaveAttribute(
      "href",
      `mailto:${publicSettings.supportEmail}`,
    );
    expect(screen.queryByRole("button", { name: "Дозволити" })).not.toBeInTheDocument();
    expect(answered).toBeUndefined();
    await userEvent.setup().click(screen.getByRole("button", { name: "Повернутися до застосунку" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/oidc/auth/u2"));
    expect(answered).toEqual({ allow: false });
  });

  it("says a SAML request expired when the server no longer knows it", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/saml/consent/gone": () => apiError("saml.request_not_found"),
    });
    renderApp("/uk/consent?saml=gone");
    expect(await screen.findByTestId("consent-error")).toHaveTextContent("Запит на вхід застарів.");
  });
});
