import type { AdminMe, ServiceStatus } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiError, heldAnswer, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { onePersonPage } from "../../../../test/people-page.ts";
import { renderApp } from "../../../../test/render.tsx";
import { restoreAnswerWait } from "../testing.ts";
import { answerWait } from "./answers-first.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["people.view", "service.view"],
};

const status: ServiceStatus = {
  version: "0.3.0",
  database: { kind: "postgres", serverVersion: "15.19" },
  health: { ready: true, database: true },
  startedAt: "2026-11-27T08:00:00.000Z",
  uptimeSeconds: 3600,
  figures: {
    signIns: { success: 0, failure: 0 },
    signInsByMethod: [],
    throttledAttempts: 0,
    ticketExchanges: { success: 0, failure: 0 },
    requests: { total: 0, serverErrors: 0, averageSeconds: null, p95Seconds: null },
    pool: { total: 1, idle: 1, waiting: 0 },
    diiaPending: null,
    memoryBytes: null,
    eventLoopLagSeconds: null,
  },
  certificates: {
    warningDays: 30,
    certificates: [
      {
        source: "federation e2e metadata signer",
        subject: "CN=federation",
        notAfter: "2026-12-27T12:00:00.000Z",
        daysLeft: 29,
        state: "expiring",
      },
    ],
    unreadable: [],
  },
};

/** The console's first screen, its service answer held back until `answer` is called. */
function openHome(serviceAnswer: () => Response) {
  const { handler, answer } = heldAnswer(serviceAnswer);
  mockFetch({
    "GET /api/admin/me": () => json(admin),
    "GET /api/admin/people": () => json(onePersonPage),
    "GET /api/admin/service": handler,
  });
  renderApp("/en/admin");
  return { answer };
}

/**
 * A notice arriving after the people list pushed the list down under an operator's tap (at 390 px it is some 300 px
 * tall), and the tap meant for a person landed on the notice. The first screen shows the list with the notices.
 */
describe("the console's first screen and its notices", () => {
  restoreAnswerWait();

  it("shows the people list only with the certificate notice above it, never before it", async () => {
    // Long enough for a first render that compiles the console's modules on a loaded machine.
    answerWait.ms = 60_000;
    const { answer } = openHome(() => json(status));
    // The list's own answer is in (asked beside the service's); the screen still waits for the service's.
    const table = await screen.findByTestId("people-table");
    expect(await within(table).findByText("Олена Коваленко")).toBeInTheDocument();
    expect(table).not.toBeVisible();
    answer();
    const notice = await screen.findByTestId("certificate-notice");
    expect(notice).toHaveTextContent("federation e2e metadata signer");
    expect(table).toBeVisible();
    expect(notice.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Nothing says "Loading…" any more: the notice is the one status left (a spinner's or a placeholder's status
    // has no name and may not have its words in yet, so neither would do to look for).
    expect(screen.getAllByRole("status")).toEqual([notice]);
  });

  it("shows the list without a notice when the service's state cannot be read", async () => {
    answerWait.ms = 60_000;
    const { answer } = openHome(() => apiError("service.database_unavailable"));
    const table = await screen.findByTestId("people-table");
    await within(table).findByText("Олена Коваленко");
    expect(table).not.toBeVisible();
    answer();
    await waitFor(() => expect(table).toBeVisible());
    expect(screen.queryByTestId("certificate-notice")).not.toBeInTheDocument();
    expect(screen.queryAllByRole("status")).toEqual([]);
  });

  it("shows the list after a while without the service's answer, and a late notice below it, not above", async () => {
    answerWait.ms = 50;
    const { answer } = openHome(() => json(status));
    const table = await screen.findByTestId("people-table");
    await waitFor(() => expect(table).toBeVisible());
    answer();
    const notice = await screen.findByTestId("certificate-notice");
    expect(table.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
