import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client.ts";
import { PublicLayout } from "../layouts/layouts.tsx";
import { AppProvider } from "../provider.tsx";
import { layoutGroup } from "../router.tsx";

function Broken(): never {
  throw new Error("FAQ renderer failed");
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
});
