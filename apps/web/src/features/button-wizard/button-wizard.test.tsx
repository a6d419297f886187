import { renderAll } from "@kpi-id/signin-button";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp } from "../../../test/render.tsx";

/** jsdom does not run external scripts: stand in the package's real renderer for the loaded file, then fire load. */
function loadSigninScript() {
  const script = document.getElementById("kpi-id-signin-script");
  expect(script?.getAttribute("src")).toBe("/kpi-id-signin.js");
  const serviceOrigin = window.location.origin;
  window.KPIID = { serviceOrigin, init: () => renderAll(document, { serviceOrigin }) };
  act(() => {
    script?.dispatchEvent(new Event("load"));
  });
}

afterEach(() => {
  delete window.KPIID;
  document.getElementById("kpi-id-signin-script")?.remove();
});

describe("the button wizard", () => {
  it("starts with appId in its error state, warns on a value that is not an id, clears for an id, errs again when emptied", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/button-wizard");
    const appId = await screen.findByLabelText("Ідентифікатор застосунку (appId)");
    const error = "Вкажіть ідентифікатор застосунку: без нього кнопка не з'явиться.";
    expect(appId).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(error)).toBeVisible();
    const user = userEvent.setup();
    await user.type(appId, "app-1");
    // Not an application id (a UUID): warned, since its sign-in page would say the service is unknown.
    expect(appId).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText(error)).toBeNull();
    expect(screen.getByTestId("app-id-problem")).toHaveTextContent("Це не ідентифікатор застосунку");
    await user.clear(appId);
    await user.type(appId, "6c6fcecd-eb70-443b-a762-0f0037a090be");
    expect(appId).toHaveAttribute("aria-invalid", "false");
    expect(screen.queryByTestId("app-id-problem")).toBeNull();
    await user.clear(appId);
    expect(appId).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(error)).toBeVisible();
  });

  it("re-initialises the preview from the script after every change, with a dashed border in dev mode", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/button-wizard");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Ідентифікатор застосунку (appId)"), "app-1");
    loadSigninScript();
    const preview = screen.getByTestId("button-preview");
    expect(within(preview).getByRole("link", { name: "Увійти з KPI ID" })).toHaveAttribute(
      "href",
      `${window.location.origin}/uk/?appId=app-1`,
    );
    await user.selectOptions(screen.getByLabelText("Мова"), "en");
    await user.selectOptions(screen.getByLabelText("Розмір"), "small");
    const english = within(preview).getByRole("link", { name: "Sign in with KPI ID" });
    expect(english).toHaveClass("kpi-id-btn--small");
    expect(within(preview).getAllByRole("link")).toHaveLength(1);
    expect(preview).not.toHaveClass("border-dashed");
    await user.click(screen.getByLabelText("Режим розробника"));
    expect(preview).toHaveClass("border-dashed");
    expect(within(preview).getByRole("link")).toHaveClass("kpi-id-btn--dev");
  });

  it("copies a snippet and confirms with the toast", async () => {
    mockFetch({ "GET /user": unauthorized });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    renderApp("/uk/button-wizard");
    await user.type(await screen.findByLabelText("Ідентифікатор застосунку (appId)"), "app-7");
    await user.click(screen.getByRole("button", { name: "Копіювати: 2. Додайте кнопку" }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('data-app-id="app-7"'));
    expect(writeText.mock.calls[0]?.[0]).not.toContain("data-dev-mode");
    // The toaster may replace the toast's element once while it settles; the message ends up shown.
    await waitFor(() => expect(screen.getByText("Скрипт скопійовано в буфер обміну")).toBeVisible());
  });
});
