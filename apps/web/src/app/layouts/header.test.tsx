import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { initTestI18n } from "../../../test/i18n.ts";
import { renderWithProviders } from "../../../test/render.tsx";
import { Header } from "./header.tsx";

// WCAG 2.5.3 (label in name): a voice-control user says the text they see, so the link's accessible
// name must contain it. The university's caption is visible from the small breakpoint up.
describe("the header's home link", () => {
  for (const [language, home, university] of [
    ["uk", "на головну", "КПІ ім. Ігоря Сікорського"],
    ["en", "home", "Igor Sikorsky Kyiv Polytechnic Institute"],
  ] as const) {
    it(`is named by what it shows, then where it goes (${language})`, async () => {
      await initTestI18n(language);
      renderWithProviders(<Header />, `/${language}/`);
      const link = await screen.findByRole("link", { name: new RegExp(home) });
      const visible = (link.textContent ?? "").replace(` — ${home}`, "").replace(/\s+/g, " ").trim();
      expect(visible).toBe(`KPI ID${university}`);
      expect(link.getAttribute("aria-label")).toBeNull();
    });
  }
});
