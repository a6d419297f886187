import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { notify } from "@/lib/notify.ts";
import { createQueryClient } from "@/lib/query-client.ts";
import { AppProvider } from "./provider.tsx";

// Its own file: the toaster, once wanted, stays mounted for the rest of a module's life.
describe("the toaster", () => {
  it("is not in the page until the first toast, which it still shows", async () => {
    render(
      <AppProvider queryClient={createQueryClient()}>
        <p>page</p>
      </AppProvider>,
    );
    await screen.findByText("page");
    // Time enough for sonner to load and mount, as it did at start-up before.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(screen.queryByRole("region", { name: /Notifications/ })).toBeNull();
    notify("error", "Something went wrong");
    expect(await screen.findByText("Something went wrong")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: /Notifications/ })).toBeInTheDocument();
  });
});
