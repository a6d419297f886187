import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

/** Issue 60: any page opened signed out continues there after the sign-in, not on the apps list. */
describe("coming back to the page after sign-in", () => {
  it("sends a signed-out person from the developers' page to the sign-in page that remembers it", async () => {
    mockFetch({ "GET /user": unauthorized });
    const { router } = renderApp("/uk/developers");
    await waitFor(() => expect(router.state.location.pathname).toBe("/uk/"));
    expect(new URLSearchParams(router.state.location.search).get("returnTo")).toBe("/uk/developers");
  });

  it("takes a person already signed in straight to the remembered page", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/developers/applications": () => json({ allowed: true, limit: 5, applications: [] }),
      "GET /api/developers/invitations": () => json({ invitations: [], testing: [] }),
    });
    const { router } = renderApp("/en/?returnTo=%2Fen%2Fdevelopers");
    await waitFor(() => expect(router.state.location.pathname).toBe("/en/developers"));
    expect(await screen.findByTestId("integration-manual-link")).toBeInTheDocument();
  });
});
