import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { REDUCED_MOTION_QUERY } from "@/lib/use-media-query.ts";
import { json, mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

// Pages that only make sense at the end of a sign-in, opened directly from a bookmark or the history.
describe("pages opened with nothing behind them", () => {
  it("/auth-success without a sign-in says so and offers one, with no confetti", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/auth-success");
    expect(await screen.findByRole("heading", { name: "Ви не ввійшли" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Увійти" })).toHaveAttribute("href", "/uk/");
    expect(screen.queryByRole("heading", { name: "Вхід виконано" })).not.toBeInTheDocument();
  });

  it("/auth-success after a sign-in still celebrates it", async () => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/en/auth-success");
    expect(await screen.findByRole("heading", { name: "You are signed in" })).toBeInTheDocument();
    expect(screen.queryByTestId("auth-success-not-signed-in")).not.toBeInTheDocument();
    expect(screen.getByTestId("auth-success-confetti")).toBeInTheDocument();
  });

  it("/auth-success celebrates without confetti for a person who asked their system for less motion", async () => {
    const original = window.matchMedia;
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) => ({
      ...original(query),
      matches: query === REDUCED_MOTION_QUERY,
    }));
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/en/auth-success");
    expect(await screen.findByRole("heading", { name: "You are signed in" })).toBeInTheDocument();
    expect(screen.queryByTestId("auth-success-confetti")).not.toBeInTheDocument();
  });

  it("/consent without a request explains what the page is for instead of a validation error", async () => {
    const fetchSpy = mockFetch({ "GET /user": () => json(student) });
    renderApp("/en/consent");
    expect(await screen.findByRole("heading", { name: "No sign-in is waiting for your answer" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to KPI ID" })).toHaveAttribute("href", "/en/");
    expect(screen.queryByText(/Some fields are missing/)).not.toBeInTheDocument();
    const asked = fetchSpy.mock.calls.map(([input]) => String(input));
    expect(asked.filter((url) => url.includes("interaction") || url.includes("saml"))).toEqual([]);
  });

  it("/consent?samlError=… says in the person's language why the service's sign-in stopped and who to tell", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/consent?samlError=saml.request_refused");
    expect(await screen.findByRole("heading", { name: "Вхід до сервісу не вдалося продовжити" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(/Запит сервісу на вхід відхилено/);
    expect(screen.getByText(/повідомте тих, хто керує сервісом/)).toBeInTheDocument();
  });

  it("/consent?samlError= with a code it does not know still says something a person can act on", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/consent?samlError=%3Cscript%3E");
    expect(await screen.findByRole("alert")).toHaveTextContent("The service's sign-in request could not be accepted.");
    expect(document.body.textContent).not.toContain("<script>");
  });
});
