import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProviderReturn } from "./provider-return.tsx";

/**
 * The page Google or BankID returns to is found by its heading, and says what it does through a status. A status
 * mounted with its words already in is often not read, so it enters empty and its words go in after (LiveStatus).
 */
describe("the page a sign-in provider returns to", () => {
  it("has its words as a heading outside the status, which enters empty and says them after", async () => {
    render(<ProviderReturn status="Finishing BankID sign-in…" />);
    expect(screen.getByRole("heading", { level: 1, name: "Finishing BankID sign-in…" })).toBeInTheDocument();
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent(/^$/);
    expect(status).toHaveAccessibleName("");
    expect(status).not.toContainElement(screen.getByRole("heading"));
    await waitFor(() => expect(status).toHaveTextContent("Finishing BankID sign-in…"));
    expect(screen.getByRole("status")).toBe(status);
  });
});
