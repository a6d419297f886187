import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

// Issue 37: a person with a console role finds the console from their own pages.
describe("the link to the console", () => {
  it("is on the apps screen of an operator, in English", async () => {
    mockFetch({ "GET /user": () => json({ ...student, console: true }) });
    renderApp("/en/apps");
    expect(await screen.findByRole("link", { name: "Console" })).toHaveAttribute("href", "/en/admin");
  });

  it("is on an operator's account page, in Ukrainian", async () => {
    mockFetch({
      "GET /user": () => json({ ...student, console: true }),
      "GET /api/account/sessions": () => json({ sessions: [] }),
    });
    renderApp("/uk/account");
    expect(await screen.findByRole("link", { name: "Відкрити консоль операторів" })).toHaveAttribute(
      "href",
      "/uk/admin",
    );
  });

  it("is not shown to a person without a console role", async () => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/uk/apps");
    expect(await screen.findAllByTestId("app-card")).not.toHaveLength(0);
    expect(screen.queryByTestId("console-link")).not.toBeInTheDocument();
  });
});
