import type { AppLinkCheck, Language, SignInContinuing } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const voting: SignInContinuing = { title: "Голосування", titleEn: "Voting", stage: "testing" };
const library: AppLinkCheck = {
  known: true,
  redirectUriRegistered: true,
  title: "Бібліотека",
  titleEn: "Library",
  stage: "reviewed",
};

const expected = {
  uk: {
    intro: "Ви входите в",
    voting: "Голосування",
    library: "Бібліотека",
    testing: "Ще тестують",
    reviewed: "Перевірено",
  },
  en: {
    intro: "You are signing in to",
    voting: "Voting",
    library: "Library",
    testing: "Still being tested",
    reviewed: "Reviewed",
  },
} as const;

const paths = (language: Language) => [`/${language}/`, `/${language}/?reauth=1`, `/${language}/?reauth=1&mfa=1`];

/**
 * Issue 60: the sign-in page names the application the person signs in to. An OpenID Connect (or SAML, CAS) sign-in
 * sends the browser to the bare page; the page asks the server what the waiting sign-in continues to.
 */
describe.each(["uk", "en"] as const)("the sign-in page naming the application (%s)", (language) => {
  const text = expected[language];

  it.each(paths(language))(
    "names the application an OpenID Connect sign-in waits for, with its testing mark, at %s",
    async (path) => {
      // The reauth and step-up screens are shown to a signed-in person.
      const user = path.includes("reauth") ? () => json(student) : unauthorized;
      const calls = mockFetch({ "GET /user": user, "GET /api/sign-in/continuing": () => json(voting) });
      renderApp(path);
      const card = await screen.findByTestId("signing-in-to");
      expect(card).toHaveTextContent(text.intro);
      expect(screen.getByTestId("signing-in-to-title")).toHaveTextContent(text.voting);
      expect(screen.getByTestId("signing-in-to-stage")).toHaveTextContent(text.testing);
      expect(calls.mock.calls.some(([url]) => String(url).startsWith("/api/app-link"))).toBe(false);
    },
  );

  it("names nothing when no application's sign-in waits", async () => {
    const calls = mockFetch({ "GET /user": unauthorized });
    renderApp(`/${language}/`);
    await screen.findByRole("heading", { level: 1 });
    await waitFor(() => expect(calls.mock.calls.some(([url]) => String(url) === "/api/sign-in/continuing")).toBe(true));
    expect(screen.queryByTestId("signing-in-to")).toBeNull();
  });

  it("names a ticket link's application from the link, not from a waiting sign-in", async () => {
    const calls = mockFetch({
      "GET /user": unauthorized,
      "GET /api/app-link": () => json(library),
      "GET /api/sign-in/continuing": () => json(voting),
    });
    renderApp(`/${language}/?appId=6c6fcecd-eb70-443b-a762-0f0037a090be`);
    expect(await screen.findByTestId("signing-in-to-title")).toHaveTextContent(text.library);
    expect(screen.getByTestId("signing-in-to-stage")).toHaveTextContent(text.reviewed);
    expect(calls.mock.calls.some(([url]) => String(url) === "/api/sign-in/continuing")).toBe(false);
  });
});
