import type { ConsentDetails } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../test/fetch-mock.ts";
import { renderApp, student } from "../../test/render.tsx";

const details: ConsentDetails = {
  application: { title: "Голосування", description: "" },
  scopes: ["openid", "profile"],
  person: { name: student.fullName },
  access: true,
  reviewed: false,
  inTesting: false,
};

/** Applications people registered on the developers' page (issue 39), on the consent screen. */
describe("the consent screen for a developer's application", () => {
  it("marks one the university has not reviewed, in Ukrainian, above Allow", async () => {
    mockFetch({ "GET /user": () => json(student), "GET /api/oidc/interaction/u1/details": () => json(details) });
    renderApp("/uk/consent?uid=u1");
    expect(await screen.findByTestId("consent-not-reviewed")).toHaveTextContent("Університет не перевіряв");
    expect(screen.getByRole("button", { name: "Дозволити" })).toBeInTheDocument();
  });

  it("tells a person who is not a tester that it is still being tested, in English", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/oidc/interaction/u1/details": () => json({ ...details, access: false, inTesting: true }),
    });
    renderApp("/en/consent?uid=u1");
    expect(await screen.findByRole("heading", { name: "“Голосування” is still being tested" })).toBeInTheDocument();
    expect(screen.getByTestId("consent-in-testing")).toHaveTextContent("only its owners and testers can sign in");
  });

  it("shows the reviewed mark, not the warning, for a reviewed application", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/oidc/interaction/u1/details": () => json({ ...details, reviewed: true }),
    });
    renderApp("/uk/consent?uid=u1");
    expect(await screen.findByRole("button", { name: "Дозволити" })).toBeInTheDocument();
    expect(screen.queryByTestId("consent-not-reviewed")).not.toBeInTheDocument();
    expect(screen.getByTestId("consent-reviewed")).toHaveTextContent("Перевірено університетом");
  });
});
