import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { notify } from "@/lib/notify.ts";
import { createQueryClient } from "@/lib/query-client.ts";
import { renderWithProviders } from "../../test/render.tsx";
import { AppProvider } from "./provider.tsx";
import { toastSettings } from "./toaster.tsx";

function Broken(): never {
  throw new Error("Widget exploded");
}

describe("an uncaught rendering error", () => {
  it("appears as an error toast with its message", async () => {
    // React reports the caught error on the console; the toast is what the person sees.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(
      <AppProvider queryClient={createQueryClient()}>
        <Broken />
      </AppProvider>,
    );
    expect(await screen.findByText("Widget exploded")).toBeInTheDocument();
  });
});

describe("toasts", () => {
  it("are 356 px wide, 14 px apart and at most three at a time", async () => {
    renderWithProviders(<p>page</p>);
    for (const text of ["one", "two", "three", "four"]) notify("error", text);
    await screen.findByText("four");
    const list = document.querySelector("[data-sonner-toaster]") as HTMLElement;
    expect(list.style.getPropertyValue("--width")).toBe(`${toastSettings.width}px`);
    expect(list.style.getPropertyValue("--gap")).toBe(`${toastSettings.gap}px`);
    const visible = [...document.querySelectorAll("[data-sonner-toast]")].filter(
      (item) => item.getAttribute("data-visible") === "true",
    );
    expect(visible).toHaveLength(3);
  });
});
