import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { createQueryClient } from "@/lib/query-client.ts";
import { PublicLayout } from "../layouts/layouts.tsx";
import { AppProvider } from "../provider.tsx";
import { layoutGroup } from "../router.tsx";

function Broken(): never {
  throw new Error("FAQ renderer failed");
}

const staleChunk = "Failed to fetch dynamically imported module: http://localhost/assets/content-pages-abc123.js";

function renderFaq(Component: () => never) {
  const router = createMemoryRouter(
    [{ path: "/:lang", children: [layoutGroup(PublicLayout, [{ path: "faq", Component }])] }],
    { initialEntries: ["/uk/faq"] },
  );
  render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

function StaleChunk(): never {
  throw new TypeError(staleChunk);
}

describe("the error screen of a route group", () => {
  it("replaces the broken page with the error screen inside the layout and shows the error as a toast", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const router = createMemoryRouter(
      [{ path: "/:lang", children: [layoutGroup(PublicLayout, [{ path: "faq", Component: Broken }])] }],
      { initialEntries: ["/uk/faq"] },
    );
    render(
      <AppProvider queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    expect(await screen.findByRole("heading", { name: "Щось пішло не так" })).toBeInTheDocument();
    expect(await screen.findByText("FAQ renderer failed")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Повернутися на головну" })).toHaveAttribute("href", "/uk/");
    // The layout stays: the person can still switch language or reach the help page.
    expect(screen.getByRole("banner")).toBeInTheDocument();
    expect(screen.getByRole("contentinfo")).toBeInTheDocument();
  });

  it("reloads once when a page's file is gone after a deploy, then says so in words", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const reload = vi.spyOn(browser, "reload").mockImplementation(() => undefined);
    window.sessionStorage.clear();
    renderFaq(StaleChunk);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    cleanup();
    // The reload did not help (same failure again): a translated message, never the browser's text.
    renderFaq(StaleChunk);
    expect(await screen.findByRole("heading", { name: "Доступна нова версія KPI ID" })).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(staleChunk)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Оновити сторінку" })).toBeInTheDocument();
  });
});
