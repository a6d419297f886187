import type { AdminMe, ImportJobView, LatestImportJob } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["people.view", "people.manage"],
};

const running: ImportJobView = {
  id: "5b0f3c1e-8d6a-4d0e-9a51-3f1f0c2b7a10",
  mode: "apply",
  status: "running",
  fileName: "staff.csv",
  total: 600,
  processed: 200,
  created: 200,
  updated: 0,
  unchanged: 0,
  rejected: 0,
  startedAt: "2026-11-25T07:00:00.000Z",
  finishedAt: null,
  lines: [],
};

/** Issue 37: a screen reader hears the import's counts while it runs and then how it ended, from one live region. */
describe("the import's live status", () => {
  it("says the counts while the job runs and the outcome once it ends, in the same status region", async () => {
    let answers = 0;
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      "GET /api/admin/import/jobs/latest": () => json({ job: running } satisfies LatestImportJob),
      [`GET /api/admin/import/jobs/${running.id}`]: () => {
        answers += 1;
        const ended: ImportJobView = {
          ...running,
          status: "done",
          processed: 600,
          created: 600,
          finishedAt: "2026-11-25T07:01:00.000Z",
        };
        return json(answers === 1 ? running : ended);
      },
    });
    renderApp("/en/admin/import");
    const status = await screen.findByTestId("import-status");
    expect(status).toHaveAttribute("role", "status");
    expect(status).toHaveTextContent("200 of 600 lines");
    // The page polls once a second; the same region, not a new one, then says the import is done.
    await waitFor(() => expect(status).toHaveTextContent("The import is done"), { timeout: 4000 });
    expect(screen.getByTestId("import-status")).toBe(status);
  });
});
