import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FullScreenSpinner, PageSpinner, Spinner } from "./spinner.tsx";

/**
 * A status mounted with its words already in is often not read: a screen reader hears of a new region, not of a
 * change in one. The spinners' status is in the page first, empty and unnamed, and their words go in after.
 */
describe("the spinners' status", () => {
  it.each([
    ["PageSpinner", PageSpinner],
    ["FullScreenSpinner", FullScreenSpinner],
  ])("%s is an empty status when it enters the page, and says its label after", async (_name, Shown) => {
    render(<Shown label="Завантаження…" />);
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent(/^$/);
    // Not said through a name either: an aria-label is there from the start just like words inside.
    expect(status).toHaveAccessibleName("");
    await waitFor(() => expect(status).toHaveTextContent("Завантаження…"));
    expect(screen.getByRole("status")).toBe(status);
    // The icon is for the eye only; the words are said once, by the status.
    expect(status.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
  });

  it("is no status at all without a label (inside a button, which says it is busy)", () => {
    render(<Spinner />);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    expect(document.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
  });

  it("leaves no timer behind when it goes before its words went in", () => {
    vi.useFakeTimers();
    const { unmount } = render(<PageSpinner label="Завантаження…" />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
