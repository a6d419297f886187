import type { AdminApplicationDetail, AdminMe, CasServices, ReviewQueue } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage", "apps.review"],
};
const appId = "7a1f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b";

const request: ReviewQueue["reviews"][number] = {
  applicationId: appId,
  kind: "review",
  requestId: "5b0e6a8c-3d2f-4e1a-9c7b-2a4d6e8f0b1c",
  changes: [],
  title: "Голосування студради",
  titleEn: "Student council vote",
  description: "Вибори до студради факультету",
  descriptionEn: "Elections to the faculty's student council",
  homePageUrl: "https://vote.example.org",
  privacyPolicyUrl: "https://vote.example.org/privacy",
  callbackUrls: [],
  redirectUris: ["https://vote.example.org/callback"],
  scopes: ["openid", "profile", "kpi"],
  owners: ["student"],
  purpose: "Online elections of the faculty's student council",
  dataNeeded: "The faculty and the study group, to give each voter the right ballot",
  requestedAt: "2026-11-20T10:00:00.000Z",
};

function posts(calls: ReturnType<typeof mockFetch>) {
  return calls.mock.calls
    .filter(([, init]) => (init as RequestInit | undefined)?.method === "POST")
    .map(([input, init]) => ({
      path: new URL(String(input), "http://localhost").pathname,
      body: JSON.parse(String((init as RequestInit).body)) as unknown,
    }));
}

function openQueue(language: "uk" | "en", operator: AdminMe = admin) {
  let pending = [request];
  const calls = mockFetch({
    // After a decision the console reloads everything it shows; the operator's own answer comes last here, after the
    // queue without the card, as it can in a browser. The toast must not depend on the card outliving the reload.
    "GET /api/admin/me": async () => {
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      return json(operator);
    },
    "GET /api/admin/reviews": () => json({ reviews: pending } satisfies ReviewQueue),
    [`POST /api/admin/reviews/${appId}`]: () => {
      pending = [];
      return json({ ok: true });
    },
  });
  renderApp(`/${language}/admin/reviews`);
  return { calls, user: userEvent.setup() };
}

/** Issue 39: operators decide the requests of applications registered on the developers' page. */
describe("the console's review queue", () => {
  it("lists a pending request with its purpose, the data it needs and why, in English", async () => {
    openQueue("en");
    const card = await screen.findByTestId("review-request");
    expect(within(card).getByRole("heading", { name: "Student council vote" })).toBeInTheDocument();
    // The description in the console's language, the owner's Ukrainian one beside it, each marked with its language.
    expect(within(card).getByText("Elections to the faculty's student council")).toHaveAttribute("lang", "en");
    const other = within(card).getByTestId("review-other-description");
    expect(other).toHaveTextContent("Description in Ukrainian: Вибори до студради факультету");
    expect(within(other).getByText("Вибори до студради факультету")).toHaveAttribute("lang", "uk");
    // The other language's name too: an application must pass itself off as nothing in either.
    expect(within(card).getByTestId("review-other-title")).toHaveTextContent("In Ukrainian: Голосування студради");
    expect(within(card).getByText(request.purpose)).toBeInTheDocument();
    expect(within(card).getByText(request.dataNeeded)).toBeInTheDocument();
    expect(within(card).getByText("What the application is for")).toBeInTheDocument();
    expect(within(card).getByText("https://vote.example.org/callback")).toBeInTheDocument();
    expect(within(card).getByText("kpi")).toBeInTheDocument();
    expect(screen.getByTestId("review-count")).toHaveTextContent("1 request waiting");
    expect(screen.getByRole("link", { name: "Application reviews" })).toHaveAttribute("aria-current", "page");
  });

  it("refuses a rejection without a reason with a visible message and sends nothing", async () => {
    const { calls, user } = openQueue("uk");
    await user.click(await screen.findByRole("button", { name: "Відхилити" }));
    await user.click(screen.getByRole("button", { name: "Відхилити з цією причиною" }));
    const error = await screen.findByTestId("review-reason-error");
    expect(error).toHaveTextContent("Напишіть причину відмови");
    const reason = screen.getByLabelText("Причина відмови (її побачать власники)");
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason.getAttribute("aria-describedby")).toContain(error.id);
    expect(reason).toHaveFocus();
    // Blanks are no reason either.
    await user.type(reason, "   ");
    await user.click(screen.getByRole("button", { name: "Відхилити з цією причиною" }));
    expect(screen.getByTestId("review-reason-error")).toBeInTheDocument();
    expect(posts(calls)).toEqual([]);
  });

  it("rejects with the reason the operator wrote", async () => {
    const { calls, user } = openQueue("en");
    await user.click(await screen.findByRole("button", { name: "Reject" }));
    await user.type(screen.getByLabelText("Why it is rejected (the owners will see this)"), "No privacy policy");
    await user.click(screen.getByRole("button", { name: "Reject with this reason" }));
    await waitFor(() =>
      expect(posts(calls)).toEqual([
        {
          path: `/api/admin/reviews/${appId}`,
          body: { decision: "rejected", requestId: request.requestId, reason: "No privacy policy" },
        },
      ]),
    );
    expect(await screen.findByText("No review requests are waiting.")).toBeInTheDocument();
    // The card is gone with the queue's reload; the toast still says what happened (it once did not: the card's
    // own callback died with it).
    expect(await screen.findByText("“Student council vote” is rejected; its owners get the reason.")).toBeVisible();
  });

  it("approves after the confirmation and the request leaves the queue", async () => {
    const { calls, user } = openQueue("uk");
    await user.click(await screen.findByRole("button", { name: "Схвалити" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Схвалити «Голосування студради»?");
    expect(posts(calls)).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Схвалити" }));
    await waitFor(() =>
      expect(posts(calls)).toEqual([
        { path: `/api/admin/reviews/${appId}`, body: { decision: "approved", requestId: request.requestId } },
      ]),
    );
    expect(await screen.findByText("Запитів на перевірку немає.")).toBeInTheDocument();
    expect(await screen.findByText("«Голосування студради» схвалено: він працює для всіх.")).toBeVisible();
  });

  it("says in the page's language when the request was already decided", async () => {
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      "GET /api/admin/reviews": () => json({ reviews: [request] }),
      [`POST /api/admin/reviews/${appId}`]: () => apiError("admin.review_not_pending"),
    });
    renderApp("/en/admin/reviews");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Approve" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("This review request has already been decided.")).toBeInTheDocument();
  });

  it("shows the queue without decisions to an operator who may only look", async () => {
    openQueue("en", { ...admin, roles: ["helpdesk"], permissions: ["apps.view"] });
    expect(await screen.findByTestId("review-request")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
  });
});

function detail(changes: Partial<AdminApplicationDetail>): AdminApplicationDetail {
  return {
    id: appId,
    name: "vote",
    title: "Голосування студради",
    titleEn: "Student council vote",
    description: "",
    descriptionEn: "",
    callbackUrls: [],
    releaseTaxId: false,
    requireMfa: false,
    oidcEnabled: true,
    redirectUris: ["https://vote.example.org/callback"],
    postLogoutRedirectUris: [],
    scopes: ["openid", "profile"],
    publicClient: false,
    firstParty: false,
    backchannelLogoutUri: null,
    deviceFlow: false,
    createdAt: "2026-11-20T08:00:00.000Z",
    updatedAt: "2026-11-20T08:00:00.000Z",
    ...changes,
  };
}

function openApplication(language: "uk" | "en", application: AdminApplicationDetail) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(admin),
    [`GET /api/admin/applications/${appId}`]: () => json(application),
    [`GET /api/admin/applications/${appId}/access`]: () => json({ rules: [], exclusions: [], people: 0 }),
    [`GET /api/admin/applications/${appId}/cas-services`]: () =>
      json({ serverUrl: "http://localhost:3000/cas", services: [] } satisfies CasServices),
    [`GET /api/admin/applications/${appId}/people`]: () => json({ people: [], page: 1, hasMore: false }),
    [`POST /api/admin/applications/${appId}/suspension`]: () => json({ ok: true }),
  });
  renderApp(`/${language}/admin/applications/${appId}`);
  return { calls, user: userEvent.setup() };
}

/**
 * The suspension section once the screen shows it: mounted hidden until the rules and CAS services answer
 * (answers-first.tsx), where a check that a button is absent passes (queries by role skip hidden elements).
 */
async function shownSuspension() {
  const section = await screen.findByTestId("application-suspension");
  await waitFor(() => expect(section).toBeVisible());
  return section;
}

describe("suspending an application from the console", () => {
  it("asks first, then suspends with the reason for its owners", async () => {
    const { calls, user } = openApplication("en", detail({ suspended: false, lifecycle: "live" }));
    const section = await shownSuspension();
    expect(within(section).getByTestId("suspension-state")).toHaveTextContent("Sign-ins to the application work.");
    expect(within(section).getByText("State: Live for everyone")).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Resume the application" })).not.toBeInTheDocument();
    await user.type(within(section).getByLabelText(/Reason/), "Phishing reports");
    await user.click(within(section).getByRole("button", { name: "Suspend the application" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Suspend “Student council vote”?");
    expect(dialog).toHaveTextContent("Every sign-in to the application stops at once");
    expect(posts(calls)).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Suspend" }));
    await waitFor(() =>
      expect(posts(calls)).toEqual([
        { path: `/api/admin/applications/${appId}/suspension`, body: { suspended: true, reason: "Phishing reports" } },
      ]),
    );
    expect(await screen.findByText("“Student council vote” is suspended.")).toBeInTheDocument();
  });

  it("offers to resume a suspended application, in Ukrainian", async () => {
    const { calls, user } = openApplication("uk", detail({ suspended: true, lifecycle: "live" }));
    const section = await shownSuspension();
    expect(within(section).getByTestId("suspension-state")).toHaveTextContent("Застосунок призупинено");
    expect(within(section).queryByRole("button", { name: "Призупинити застосунок" })).not.toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Відновити застосунок" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Відновити" }));
    await waitFor(() =>
      expect(posts(calls)).toEqual([
        { path: `/api/admin/applications/${appId}/suspension`, body: { suspended: false, reason: "" } },
      ]),
    );
  });

  it("offers both actions when the server does not say whether the application is suspended, then says what was done", async () => {
    const { user } = openApplication("en", detail({}));
    const section = await shownSuspension();
    expect(within(section).getByTestId("suspension-state")).toHaveAttribute("data-suspended", "unknown");
    expect(within(section).getByRole("button", { name: "Resume the application" })).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Suspend the application" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Suspend" }));
    await waitFor(() =>
      expect(within(section).getByTestId("suspension-state")).toHaveAttribute("data-suspended", "true"),
    );
    expect(within(section).queryByRole("button", { name: "Suspend the application" })).not.toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Resume the application" })).toBeInTheDocument();
  });

  it("shows a live application's pending change old → new and approves exactly that change, in Ukrainian", async () => {
    const change: ReviewQueue["reviews"][number] = {
      ...request,
      kind: "change",
      requestId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
      purpose: "",
      dataNeeded: "",
      changes: [
        { field: "titleEn", before: ["Student council vote"], after: ["KPI Elections"] },
        { field: "redirectUris", before: ["https://vote.example.org/callback"], after: ["https://other.example/cb"] },
      ],
    };
    let waiting = [change];
    const calls = mockFetch({
      "GET /api/admin/me": () => json(admin),
      "GET /api/admin/reviews": () => json({ reviews: waiting } satisfies ReviewQueue),
      [`POST /api/admin/reviews/${appId}`]: () => {
        waiting = [];
        return json({ ok: true });
      },
    });
    renderApp("/uk/admin/reviews");
    const user = userEvent.setup();
    const card = await screen.findByTestId("review-change");
    expect(card).toHaveTextContent("Зміна застосунку, що вже працює");
    const fields = within(card).getAllByTestId("field-change");
    expect(fields[0]).toHaveTextContent("Назва англійською");
    expect(fields[0]).toHaveTextContent("Було: Student council vote");
    expect(fields[0]).toHaveTextContent("Стане: KPI Elections");
    expect(fields[1]).toHaveTextContent("https://other.example/cb");
    expect(screen.queryByText(request.purpose)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Схвалити" }));
    await user.click(await screen.findByTestId("confirm-action"));
    await waitFor(() =>
      expect(posts(calls)).toEqual([
        { path: `/api/admin/reviews/${appId}`, body: { decision: "approved", requestId: change.requestId } },
      ]),
    );
  });
});
