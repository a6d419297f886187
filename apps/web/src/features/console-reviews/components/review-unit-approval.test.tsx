import type { AdminMe, ReviewQueue } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const unit = {
  id: "3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  code: "FICT",
  nameUk: "ФІОТ",
  nameEn: "Faculty of Informatics",
};
const unitAdmin: AdminMe = {
  username: "fict.it",
  fullName: "Факультетська ІТ",
  roles: [],
  unitRoles: [{ role: "unit_admin", unit }],
  permissions: ["console.enter", "people.view", "apps.view", "apps.manage", "apps.review", "audit.view"],
};
const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін",
  roles: ["admin"],
  permissions: ["apps.view", "apps.review"],
};
const appId = "7a1f3c1e-8a9d-4f5e-b6a7-1c2d3e4f5a6b";
const request: ReviewQueue["reviews"][number] = {
  applicationId: appId,
  kind: "review",
  requestId: "5b0e6a8c-3d2f-4e1a-9c7b-2a4d6e8f0b1c",
  changes: [],
  title: "Розклад кафедри",
  titleEn: "Department timetable",
  description: "",
  descriptionEn: "",
  homePageUrl: "",
  privacyPolicyUrl: "",
  callbackUrls: [],
  redirectUris: ["https://timetable.example.org/callback"],
  scopes: ["openid"],
  owners: ["student"],
  purpose: "The department's timetable for its students",
  dataNeeded: "The study group, to show the right timetable",
  requestedAt: "2026-11-20T10:00:00.000Z",
  unitApproval: null,
  unitFinal: false,
};
const approved = { unit, by: "fict.it", at: "2026-11-21T09:30:00.000Z" };

function openQueue(language: "uk" | "en", operator: AdminMe, item: ReviewQueue["reviews"][number]) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(operator),
    "GET /api/admin/reviews": () => json({ reviews: [item] } satisfies ReviewQueue),
    [`POST /api/admin/reviews/${appId}`]: () => json({ ok: true }),
  });
  renderApp(`/${language}/admin/reviews`);
  return { calls, user: userEvent.setup() };
}

/** Issue 79: a unit admin decides their units' requests; their approval is a first one unless the unit decides. */
describe("a unit admin's decisions in the review queue", () => {
  it("offers a unit admin the decision and says their approval goes on to central IT", async () => {
    const { calls, user } = openQueue("en", unitAdmin, request);
    await user.click(await screen.findByRole("button", { name: "Approve" }));
    expect(await screen.findByText(/Your approval is the first step: central IT then decide/)).toBeInTheDocument();
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Approve" }));
    await waitFor(() =>
      expect(calls.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === "POST")).toBe(true),
    );
    expect(
      await screen.findByText("“Department timetable” is approved by your unit: it waits for central IT."),
    ).toBeVisible();
  });

  it("shows a unit admin that their unit approved it and offers no second approval, in Ukrainian", async () => {
    openQueue("uk", unitAdmin, { ...request, unitApproval: approved });
    const note = await screen.findByTestId("review-unit-approval");
    expect(note).toHaveTextContent("Ваш підрозділ схвалив його (FICT · ФІОТ, fict.it,");
    expect(note).toHaveTextContent("він чекає на центральну ІТ-службу");
    expect(screen.queryByRole("button", { name: "Схвалити" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Відхилити" })).toBeInTheDocument();
  });

  it("tells an admin which unit approved it first, and lets them make it live", async () => {
    openQueue("en", admin, { ...request, unitApproval: approved });
    const note = await screen.findByTestId("review-unit-approval");
    expect(note).toHaveTextContent("Approved by the admin of unit FICT · Faculty of Informatics (fict.it,");
    expect(screen.getByRole("button", { name: "Approve" })).toBeInTheDocument();
  });
});
