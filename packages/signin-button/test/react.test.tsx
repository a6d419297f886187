import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { KpiIdSignin } from "../src/react.tsx";

afterEach(cleanup);

describe("the React component", () => {
  it("renders the button link and follows prop changes", () => {
    const { rerender } = render(<KpiIdSignin appId="r1" serviceOrigin="https://id.example" />);
    const link = screen.getByRole("link", { name: "Увійти з KPI ID" });
    expect(link.getAttribute("href")).toBe("https://id.example/uk/?appId=r1");
    rerender(<KpiIdSignin appId="r1" locale="en" size="small" serviceOrigin="https://id.example" />);
    expect(screen.getAllByRole("link")).toHaveLength(1);
    const english = screen.getByRole("link", { name: "Sign in with KPI ID" });
    expect(english.className).toContain("kpi-id-btn--small");
    expect(english.parentElement?.getAttribute("data-locale")).toBe("en");
    expect(english.parentElement?.hasAttribute("data-full-width")).toBe(false);
  });
});
