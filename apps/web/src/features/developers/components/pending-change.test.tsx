import type { DeveloperApplication, ErrorBody } from "@kpi-id/contracts";
import { errorMessages } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const changeId = "4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const live: DeveloperApplication = {
  ...sampleDeveloperApplication,
  callbackUrls: ["https://timetable.example.edu/callback"],
  lifecycle: "live",
};
const pending: DeveloperApplication = {
  ...live,
  pendingChange: {
    id: changeId,
    status: "pending",
    changes: [{ field: "title", before: ["Розклад"], after: ["Розклад занять"] }],
    reason: "",
    requestedAt: "2026-03-02T09:00:00.000Z",
    decidedAt: null,
  },
};

function changeOf(application: DeveloperApplication) {
  if (!application.pendingChange) throw new Error("no pending change");
  return application.pendingChange;
}

function openApplication(language: "uk" | "en", application: DeveloperApplication, answers = {}) {
  const sent: { path: string; body: unknown }[] = [];
  mockFetch({
    "GET /user": () => json(student),
    [`GET /api/developers/applications/${id}`]: () => json(application),
    [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
    ...Object.fromEntries(
      Object.entries(answers).map(([route, answer]) => [
        route,
        async (url: URL, init: RequestInit) => {
          sent.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
          return (answer as () => Response)();
        },
      ]),
    ),
  });
  renderApp(`/${language}/developers/${id}`);
  return { sent, user: userEvent.setup() };
}

/** Issue 56: on a live application an edit waits for the operators; the owner sees it and may withdraw it. */
describe("a live application's pending change on the developers' page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows the change old → new and withdraws it by its id, in English", async () => {
    const { sent, user } = openApplication("en", pending, {
      [`POST /api/developers/applications/${id}/change/withdraw`]: () => json(live),
    });
    const section = await screen.findByTestId("pending-change");
    expect(section).toHaveTextContent("A change is waiting for approval");
    const change = within(section).getByTestId("field-change");
    expect(change).toHaveTextContent("Name in Ukrainian");
    expect(change).toHaveTextContent("Was: Розклад");
    expect(within(change).getByTestId("field-change-after")).toHaveTextContent("Розклад занять");
    await user.click(screen.getByRole("button", { name: "Withdraw the change" }));
    await waitFor(() =>
      expect(sent).toEqual([{ path: `/api/developers/applications/${id}/change/withdraw`, body: { changeId } }]),
    );
  });

  it("sends only the changed field of a live application and says it waits for approval, in Ukrainian", async () => {
    const { sent, user } = openApplication("uk", live, {
      [`POST /api/developers/applications/${id}`]: () => json(pending),
    });
    expect(await screen.findByText(/спершу схвалюють адміністратори/)).toBeInTheDocument();
    const title = screen.getByLabelText("Назва українською");
    await user.clear(title);
    await user.type(title, "Розклад занять");
    await user.click(screen.getByRole("button", { name: "Зберегти" }));
    await waitFor(() =>
      expect(sent).toEqual([{ path: `/api/developers/applications/${id}`, body: { title: "Розклад занять" } }]),
    );
    expect(await screen.findByText("Зміну надіслано адміністраторам на схвалення.")).toBeInTheDocument();
  });

  it("refuses a right-to-left override in the title beside the field, without asking the server", async () => {
    const { sent, user } = openApplication("uk", live, {
      [`POST /api/developers/applications/${id}`]: () => json(pending),
    });
    const title = await screen.findByLabelText("Назва українською");
    await user.type(title, "\u202Eexe.gpj");
    await user.click(screen.getByRole("button", { name: "Зберегти" }));
    expect(await screen.findByTestId("title-error")).toHaveTextContent("керівних і невидимих символів");
    expect(title).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  it("shows the server's reserved-name refusal beside the English title", async () => {
    const body: ErrorBody = {
      code: "developer.reserved_name",
      message: errorMessages.en["developer.reserved_name"],
      details: [{ path: "body.titleEn", message: "reserved" }],
    };
    const { user } = openApplication("en", live, {
      [`POST /api/developers/applications/${id}`]: () => json(body, 400),
    });
    const title = await screen.findByLabelText("Name in English");
    await user.clear(title);
    await user.type(title, "KPI Campus");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByTestId("titleEn-error")).toHaveTextContent(
      "An official university application has this name",
    );
  });

  it("uploads an icon to KPI ID and sends its address as the only change, in English", async () => {
    const iconUrl = `/api/developers/icons/${"a".repeat(64)}.svg`;
    const { sent, user } = openApplication("en", live, {
      [`POST /api/developers/applications/${id}/icon`]: () => json({ iconUrl }),
      [`POST /api/developers/applications/${id}`]: () => json(pending),
    });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    await user.upload(await screen.findByLabelText(/Icon/), new File([svg], "icon.svg", { type: "image/svg+xml" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      path: `/api/developers/applications/${id}/icon`,
      body: { contentType: "image/svg+xml", data: btoa(svg) },
    });
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent[1]).toEqual({ path: `/api/developers/applications/${id}`, body: { iconUrl } }));
  });

  it("tells the owner why a change was not approved, in English", async () => {
    openApplication("en", {
      ...pending,
      pendingChange: { ...changeOf(pending), status: "rejected", reason: "The name misleads" },
    });
    expect(await screen.findByTestId("change-rejected")).toHaveTextContent("The operators' reason: The name misleads");
  });
});
