import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../../../test/render.tsx";
import { StrengthMeter } from "./strength-meter.tsx";

/**
 * The meter comes in with the first character typed, and a status mounted with its words already in is often not
 * read (live-status.tsx): its status enters empty and says the line after, while the line itself is seen at once.
 */
describe("the strength meter's line", () => {
  it("is seen at once and said by a status that enters the page empty", async () => {
    renderWithProviders(<StrengthMeter password="abc" contextWords={[]} />);
    const said = screen.getByRole("status");
    expect(said).toHaveTextContent(/^$/);
    // Seen where it was; screen readers get it once, from the status.
    expect(screen.getByText("3 символи: потрібно щонайменше 8").closest("p")).toHaveAttribute("aria-hidden", "true");
    await waitFor(() => expect(said).toHaveTextContent(/ · 3 символи: потрібно щонайменше 8$/));
  });
});
