import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch, publicSettings, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

/** Issue 17: the server sends a one-factor session to /{lang}/?reauth=1&mfa=1 when an application asks for more. */
describe("the sign-in screen after a step-up redirect", () => {
  it("says in English that the application needs a second factor, Diia included where it is on", async () => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/en/?reauth=1&mfa=1");
    const hint = await screen.findByTestId("mfa-required");
    expect(hint).toHaveTextContent("This application needs a second factor");
    // The deployment's settings (here fetched; in the page they come with it) add the Diia way.
    await waitFor(() => expect(hint).toHaveTextContent("or with Diia. Google alone is not enough."));
    expect(screen.getByLabelText("Username")).toBeInTheDocument();
  });

  it("says it in Ukrainian, without Diia when the deployment has none", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/settings": () => json({ ...publicSettings, diiaEnabled: false }),
    });
    renderApp("/uk/?reauth=1&mfa=1");
    const hint = await screen.findByTestId("mfa-required");
    expect(hint).toHaveTextContent("Цей застосунок вимагає другого фактора");
    expect(await screen.findByTestId("google-login")).toBeInTheDocument();
    expect(hint).not.toHaveTextContent("Дію");
  });

  it("is not shown on an ordinary sign-in or a re-authentication without mfa=1", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/");
    expect(await screen.findByLabelText("Username")).toBeInTheDocument();
    expect(screen.queryByTestId("mfa-required")).toBeNull();
  });
});
