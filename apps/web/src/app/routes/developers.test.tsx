import type { DeveloperApplications } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sampleDeveloperApplication as application, id } from "../../../test/developers.ts";
import { apiError, json, mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

const none: DeveloperApplications = { allowed: true, limit: 5, applications: [] };

describe("the developers' page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("registers an application and shows its secret once, with the id, in Ukrainian", async () => {
    const sent: unknown[] = [];
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/developers/applications": () => json(none),
      "GET /api/developers/invitations": () => json({ invitations: [], testing: [] }),
      "POST /api/developers/applications": async (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        return json({ application, secret: "the-one-time-secret" });
      },
    });
    renderApp("/uk/developers");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Зареєструвати застосунок" }));
    await user.type(screen.getByLabelText("Назва українською"), "Розклад");
    await user.type(screen.getByLabelText("Назва англійською"), "Timetable");
    await user.type(screen.getByLabelText(/Адреси повернення квитка/), "http://localhost:4000/callback");
    await user.click(screen.getByRole("button", { name: "Зареєструвати" }));
    expect(await screen.findByTestId("created-secret")).toHaveTextContent("the-one-time-secret");
    expect(screen.getByTestId("created-app-id")).toHaveTextContent(id);
    expect(sent).toEqual([
      expect.objectContaining({
        title: "Розклад",
        titleEn: "Timetable",
        callbackUrls: ["http://localhost:4000/callback"],
        redirectUris: [],
        scopes: ["openid", "profile"],
      }),
    ]);
  });

  it("says who may register, in English, and offers no form", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/developers/applications": () => json({ ...none, allowed: false }),
      "GET /api/developers/invitations": () => json({ invitations: [], testing: [] }),
    });
    renderApp("/en/developers");
    expect(await screen.findByTestId("developers-not-allowed")).toHaveTextContent(
      "Registering applications is not open to you",
    );
    expect(screen.queryByRole("button", { name: "Register an application" })).not.toBeInTheDocument();
  });

  it("shows an application's state, testers and a failure with its fix", async () => {
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/developers/applications/${id}`]: () => json(application),
      [`GET /api/developers/applications/${id}/health`]: () =>
        json({
          signInsPerDay: [{ day: "2026-03-01", signIns: 3 }],
          failures: [
            {
              id: "2",
              at: "2026-03-01T09:05:00.000Z",
              protocol: "oidc",
              reason: "redirect_uri_not_registered",
              address: "https://vote.example.edu/wrong",
            },
            { id: "1", at: "2026-03-01T09:00:00.000Z", protocol: "ticket", reason: "wrong_secret", address: "" },
          ],
        }),
    });
    renderApp(`/en/developers/${id}`);
    expect(await screen.findByTestId("lifecycle")).toHaveTextContent("Testing");
    expect(screen.getByText("Testers (0 of 25)")).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId("integration-failure")[1]).toHaveTextContent("Wrong secret"));
    // The address an unregistered redirect was tried with (issue 60), on its own failure only.
    expect(screen.getAllByTestId("failure-address")).toHaveLength(1);
    expect(screen.getByTestId("failure-address")).toHaveTextContent("https://vote.example.edu/wrong");
    expect(screen.getByText("3 sign-ins in the last 30 days")).toBeInTheDocument();
  });

  it("tells a CAS developer whose proxy callback was refused to fix the callback, not the ticket, in Ukrainian", async () => {
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/developers/applications/${id}`]: () => json(application),
      [`GET /api/developers/applications/${id}/health`]: () =>
        json({
          signInsPerDay: [{ day: "2026-03-01", signIns: 1 }],
          failures: [
            { id: "2", at: "2026-03-01T09:01:00.000Z", protocol: "cas", reason: "proxy_callback_refused", address: "" },
            { id: "1", at: "2026-03-01T09:00:00.000Z", protocol: "cas", reason: "service_mismatch", address: "" },
          ],
        }),
    });
    renderApp(`/uk/developers/${id}`);
    await waitFor(() => expect(screen.getAllByTestId("integration-failure")).toHaveLength(2));
    const [callback, mismatch] = screen.getAllByTestId("integration-failure");
    expect(callback).toHaveTextContent("CAS");
    expect(callback).toHaveTextContent("Адресу зворотного виклику проксі відхилено");
    expect(callback).toHaveTextContent("pgtUrl має бути https");
    expect(callback).not.toHaveTextContent("60 секунд");
    expect(mismatch).toHaveTextContent("Квиток перевірено для іншої адреси сервісу");
  });

  it("keeps the reason a review request was refused beside the form, in English", async () => {
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/developers/applications/${id}`]: () => json(application),
      [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
      [`POST /api/developers/applications/${id}/review`]: () => apiError("developer.insecure_uri"),
    });
    renderApp(`/en/developers/${id}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("What the application is for"), "Timetables for every group");
    await user.type(screen.getByLabelText("The data it needs and why"), "The study group, to show its timetable");
    await user.click(screen.getByRole("button", { name: "Request review" }));
    const refused = await screen.findByTestId("review-refused");
    expect(refused).toHaveTextContent("The request was not accepted");
    expect(refused).toHaveTextContent("Only https addresses, or http://localhost and http://127.0.0.1 for development");
  });

  it.each([
    ["en", "Request review", "What the application is for", "The data it needs and why", "The address refused:"],
    ["uk", "Подати на перевірку", "Для чого застосунок", "Які дані потрібні й навіщо", "Відхилена адреса:"],
  ])(
    "names the address at fault when a review request is refused (%s)",
    async (language, submit, purpose, data, label) => {
      // Stored under older rules: the second redirect URI is plain http, and the server names its field and line.
      const older = { ...application, redirectUris: ["https://vote.example.edu/oidc", "http://vote.example.edu/old"] };
      mockFetch({
        "GET /user": () => json(student),
        [`GET /api/developers/applications/${id}`]: () => json(older),
        [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
        [`POST /api/developers/applications/${id}/review`]: () =>
          apiError("developer.insecure_uri", {}, [
            { path: "body.redirectUris.1", message: "http_not_loopback: http://vote.example.edu/old" },
          ]),
      });
      renderApp(`/${language}/developers/${id}`);
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText(purpose), "Timetables for every group");
      await user.type(screen.getByLabelText(data), "The study group, to show its timetable");
      await user.click(screen.getByRole("button", { name: submit }));
      const address = await screen.findByTestId("review-refused-address");
      expect(address).toHaveTextContent(`${label} http://vote.example.edu/old`);
      expect(address).not.toHaveTextContent("https://vote.example.edu/oidc");
    },
  );
});
