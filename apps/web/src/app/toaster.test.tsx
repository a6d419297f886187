import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { notify } from "@/lib/notify.ts";
import { renderWithProviders } from "../../test/render.tsx";

// vitest: fresh modules. The toaster, once wanted, stays mounted for the rest of a module's life.
describe("the toaster", () => {
  it("is not in the page until the first toast, which it still shows", async () => {
    renderWithProviders(<p>page</p>);
    await screen.findByText("page");
    // Time enough for sonner to load and mount, as it did at start-up before.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(screen.queryByRole("region", { name: /Notifications/ })).toBeNull();
    notify("error", "Something went wrong");
    expect(await screen.findByText("Something went wrong")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: /Notifications/ })).toBeInTheDocument();
  });
});
