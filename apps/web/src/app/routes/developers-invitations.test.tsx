import type { DeveloperApplication, DeveloperMemberships } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { id, sampleDeveloperApplication } from "../../../test/developers.ts";
import { apiError, json, mockFetch } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";
import { recordStatusesEntering } from "../../../test/statuses-entering.ts";

const invitationId = "7d1f0c2e-1111-4a2b-8c3d-000000000042";
const application: DeveloperApplication = {
  ...sampleDeveloperApplication,
  testers: [{ username: "classmate", you: false }],
};
const invited: DeveloperMemberships = {
  invitations: [
    {
      id: invitationId,
      role: "tester",
      title: "Голосування",
      titleEn: "Voting",
      invitedBy: "o.petrenko",
      expiresAt: "2026-12-11T09:00:00.000Z",
    },
  ],
  testing: [],
};

describe("developers' invitations on the page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("invites by name, lists the invitation without saying whether the name exists, and withdraws it", async () => {
    const sent: unknown[] = [];
    let current = application;
    mockFetch({
      "GET /user": () => json(student),
      [`GET /api/developers/applications/${id}`]: () => json(current),
      [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
      [`POST /api/developers/applications/${id}/testers`]: (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        current = {
          ...application,
          invitations: [
            {
              id: invitationId,
              role: "tester",
              named: "nobody@kpi.ua",
              invitedAt: "2026-11-27T09:00:00.000Z",
              expiresAt: "2026-12-11T09:00:00.000Z",
            },
          ],
        };
        return json(current);
      },
      [`POST /api/developers/applications/${id}/invitations/withdraw`]: (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        current = application;
        return json(current);
      },
    });
    renderApp(`/en/developers/${id}`);
    const statuses = recordStatusesEntering();
    const user = userEvent.setup();
    const testers = await screen.findByTestId("developer-testers");
    expect(within(testers).getByText("classmate")).toBeInTheDocument();
    await user.type(within(testers).getByLabelText("Username or e-mail address"), "nobody@kpi.ua");
    await user.click(within(testers).getByRole("button", { name: "Invite a tester" }));
    // The line is seen at once; its status enters empty and says it after (live-status.tsx says why).
    expect(await within(testers).findByTestId("testers-invited")).toHaveTextContent(
      "If “nobody@kpi.ua” has a KPI ID account, they get an invitation",
    );
    const said = within(testers).getByRole("status");
    expect(statuses.textWhenEntered(said)).toBe("");
    statuses.stop();
    await waitFor(() =>
      expect(said).toHaveTextContent("If “nobody@kpi.ua” has a KPI ID account, they get an invitation"),
    );
    const pending = await within(testers).findByTestId("testers-pending");
    expect(pending).toHaveTextContent("nobody@kpi.ua");
    expect(pending).toHaveTextContent("Invited, waiting for an answer until 11 December 2026");
    await user.click(within(pending).getByRole("button", { name: "Withdraw" }));
    expect(sent).toEqual([{ person: "nobody@kpi.ua" }, { invitation: invitationId }]);
  });

  it("shows the invitation notice in Ukrainian, accepts it, and the application joins the tested ones", async () => {
    let memberships = invited;
    const answered: string[] = [];
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/developers/applications": () => json({ allowed: true, limit: 5, applications: [] }),
      "GET /api/developers/invitations": () => json(memberships),
      [`POST /api/developers/invitations/${invitationId}/accept`]: (url) => {
        answered.push(url.pathname);
        memberships = {
          invitations: [],
          testing: [{ ...application, id: "1c2d3e4f-0000-4000-8000-000000000001", title: "Голосування" }],
        };
        return json(memberships);
      },
    });
    renderApp("/uk/developers");
    const user = userEvent.setup();
    const notice = await screen.findByTestId("invitations-notice");
    expect(notice).toHaveTextContent("Вас запрошено до застосунку");
    expect(notice).toHaveTextContent("Стати тестувальником «Голосування»");
    expect(notice).toHaveTextContent("Запрошує o.petrenko");
    await user.click(within(notice).getByRole("button", { name: "Прийняти" }));
    expect(await screen.findByTestId("testing-list")).toHaveTextContent("Голосування");
    expect(screen.queryByTestId("invitations-notice")).not.toBeInTheDocument();
    expect(answered).toEqual([`/api/developers/invitations/${invitationId}/accept`]);
  });

  it("says why an acceptance was refused (the owner's limit), in English", async () => {
    mockFetch({
      "GET /user": () => json(student),
      "GET /api/developers/applications": () => json({ allowed: true, limit: 5, applications: [] }),
      "GET /api/developers/invitations": () =>
        json({ ...invited, invitations: invited.invitations.map((each) => ({ ...each, role: "owner" })) }),
      [`POST /api/developers/invitations/${invitationId}/accept`]: () => apiError("developer.limit_reached"),
    });
    renderApp("/en/developers");
    const user = userEvent.setup();
    const notice = await screen.findByTestId("invitations-notice");
    expect(notice).toHaveTextContent("Become a co-owner of “Voting”");
    await user.click(within(notice).getByRole("button", { name: "Accept" }));
    expect(await screen.findByText(/You already have as many applications as one person may/)).toBeInTheDocument();
  });
});
