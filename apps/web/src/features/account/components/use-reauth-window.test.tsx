import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch, publicSettings } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { useReauthWindow } from "./use-reauth-window.ts";

function Window() {
  return <p data-testid="window">{useReauthWindow()}</p>;
}

// The "confirm it is you" texts name the deployment's REAUTH_MAX_AGE_SECONDS, not a number in the text.
describe("how recent a sign-in a change needs, in words", () => {
  for (const [seconds, language, words] of [
    [600, "uk", "10 хвилин"],
    [60, "uk", "1 хвилини"],
    [180, "uk", "3 хвилин"],
    [45, "uk", "45 секунд"],
    [600, "en", "10 minutes"],
    [60, "en", "1 minute"],
    [45, "en", "45 seconds"],
  ] as const) {
    it(`${seconds} s reads "${words}" (${language})`, async () => {
      await initTestI18n(language);
      mockFetch({ "GET /api/settings": () => json({ ...publicSettings, reauthMaxAgeSeconds: seconds }) });
      renderWithProviders(<Window />, `/${language}/account`);
      expect(await screen.findByText(words)).toBeInTheDocument();
    });
  }
});
