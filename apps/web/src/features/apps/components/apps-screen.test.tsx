import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { settingsQueryKey } from "@/lib/settings.ts";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

describe("the apps screen", () => {
  it("lists the person's apps with their icons, each opening the app redirect in a new tab", async () => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/uk/apps");
    const cards = await screen.findAllByTestId("app-card");
    expect(cards).toHaveLength(3);
    expect(cards[0]).toHaveAttribute("href", `/api/app-redirect?appId=${student.applications[0]?.id}`);
    expect(cards[0]).toHaveAttribute("target", "_blank");
    const icons = cards.map((card) => card.querySelector("[data-icon]")?.getAttribute("data-icon"));
    expect(icons).toEqual(["campus", "my-kpi", "default"]);
    expect(screen.queryByTestId("redirect-error")).not.toBeInTheDocument();
    expect(screen.queryByTestId("no-apps-error")).not.toBeInTheDocument();
  });

  it("goes straight to the app once when appId names one of the person's apps (one ticket, no aborted redirect)", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({ "GET /user": () => json(student) });
    const target = student.applications[1]?.id ?? "";
    const { router } = renderApp(`/uk/apps?appId=${target}`);
    await waitFor(() => expect(replace).toHaveBeenCalledWith(`/api/app-redirect?appId=${target}`));
    // The spinner's words go in just after its status (live-status.tsx), so that a screen reader reads them.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Переходимо до сервісу «Мій КПІ»…"));
    // Clearing the query re-renders the page; a second redirect would issue a second ticket.
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(replace).toHaveBeenCalledTimes(1);
  });

  it("clears an unknown appId from the URL and shows the redirect error", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({ "GET /user": () => json(student) });
    const { router } = renderApp("/uk/apps?appId=not-mine&keep=1");
    expect(await screen.findByTestId("redirect-error")).toHaveTextContent("Сервіс недоступний");
    await waitFor(() => expect(router.state.location.search).toBe("?keep=1"));
    expect(replace).not.toHaveBeenCalled();
    expect(screen.getAllByTestId("app-card")).toHaveLength(3);
  });

  it("tells a person that an application still in testing is open only to its testers, in both languages", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({ "GET /user": () => json(student) });
    const { router } = renderApp("/uk/apps?appId=00000000-0000-4000-8000-000000000001&refused=testing&keep=1");
    expect(await screen.findByTestId("in-testing-error")).toHaveTextContent("Застосунок ще тестують");
    await waitFor(() => expect(router.state.location.search).toBe("?keep=1"));
    expect(replace).not.toHaveBeenCalled();
    expect(screen.queryByTestId("redirect-error")).not.toBeInTheDocument();
    renderApp("/en/apps?appId=00000000-0000-4000-8000-000000000001&refused=testing");
    expect(await screen.findByText("This application is still being tested")).toBeInTheDocument();
  });

  it("tells a person why KPI ID did not open an app whose return address is unregistered, and stays", async () => {
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    mockFetch({ "GET /user": () => json(student) });
    const target = student.applications[1]?.id ?? "";
    const { router } = renderApp(`/en/apps?appId=${target}&refused=redirectUri&keep=1`);
    const notice = await screen.findByTestId("redirect-uri-error");
    expect(notice).toHaveTextContent("Unregistered return address");
    expect(notice).toHaveTextContent(`The service “${student.applications[1]?.title}” asked to send you back`);
    await waitFor(() => expect(router.state.location.search).toBe("?keep=1"));
    expect(replace).not.toHaveBeenCalled();
    expect(screen.queryByTestId("redirect-error")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("app-card")).toHaveLength(3);
  });

  it("shows the no-apps notice to a person without apps", async () => {
    mockFetch({ "GET /user": () => json({ ...student, applications: [] }) });
    renderApp("/en/apps");
    expect(await screen.findByTestId("no-apps-error")).toHaveTextContent("No services available");
    // "Contact support" leads to the help page rather than leaving the person to find it (issue 37).
    expect(screen.getByRole("link", { name: "contact support" })).toHaveAttribute("href", "/en/faq");
    expect(screen.queryAllByTestId("app-card")).toHaveLength(0);
  });

  it("reloads the page after logout", async () => {
    const reload = vi.spyOn(browser, "reload").mockImplementation(() => undefined);
    const spy = mockFetch({
      "GET /user": () => json(student),
      "POST /api/auth/logout": () => new Response(null, { status: 204 }),
    });
    renderApp("/uk/apps");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Вийти" }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(spy.mock.calls.some(([url, init]) => url === "/api/auth/logout" && init?.method === "POST")).toBe(true);
  });

  it("after logout goes where the server says to sign out of SAML services", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    mockFetch({
      "GET /user": () => json(student),
      "POST /api/auth/logout": () => json({ ok: true, next: "/saml/logout/round-1" }),
    });
    renderApp("/uk/apps");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Вийти" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/saml/logout/round-1"));
  });

  it("says why a logout failed: opened at another address, the origin message", async () => {
    mockFetch({ "GET /user": () => json(student), "POST /api/auth/logout": () => apiError("request.csrf_rejected") });
    const { queryClient } = renderApp("/en/apps");
    const signOut = await screen.findByRole("button", { name: "Sign out" });
    // The address comes from the settings; on a busy machine they may still be on their way.
    await waitFor(() => expect(queryClient.getQueryData(settingsQueryKey)).toBeDefined());
    await userEvent.setup().click(signOut);
    expect(await screen.findByText(/Open http:\/\/localhost:3000 and sign in there\./)).toBeInTheDocument();
  });
});

describe("the My data dialog", () => {
  it("lists every field with its translated name, and says in words when one is empty", async () => {
    mockFetch({ "GET /user": () => json({ ...student, data: { ...student.data, TAX_ID: " " } }) });
    renderApp("/en/apps");
    await userEvent.setup().click(await screen.findByRole("button", { name: "My data" }));
    const dialog = await screen.findByRole("dialog", { name: "My data" });
    const rows = within(dialog)
      .getAllByRole("term")
      .map((term) => `${term.textContent} ${term.nextElementSibling?.textContent}`);
    expect(rows).toEqual([
      "Full name: Олена Коваленко",
      "Email: olena@kpi.ua",
      "Taxpayer number (RNOKPP): not on file",
      "Student ID number: KV-2431",
      "Employee number: not on file",
      "Sign-in method: Username and password",
    ]);
    await userEvent.setup().click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // The dialog is loaded on demand (no Radix trigger): focus still goes back to the link that opened it.
    await waitFor(() => expect(screen.getByRole("button", { name: "My data" })).toHaveFocus());
  });
});
