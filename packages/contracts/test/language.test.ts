import { describe, expect, it } from "vitest";
import { chooseLanguage, languageFromAcceptHeader, requestedLanguage } from "../src/language.ts";

describe("the one language order", () => {
  it("takes what the request names first (a path segment, ui_locales), whatever the cookie and browser say", () => {
    expect(chooseLanguage({ requested: "en", chosen: "uk", accepted: "uk" })).toBe("en");
    expect(chooseLanguage({ requested: "de en-GB uk", chosen: "uk" })).toBe("en");
    expect(requestedLanguage("de en-GB uk")).toBe("en");
    expect(requestedLanguage("faq")).toBeUndefined();
  });

  it("then the person's choice in the web app (the i18next cookie, a regional tag too)", () => {
    expect(chooseLanguage({ requested: "faq", chosen: "en-US", accepted: "uk" })).toBe("en");
  });

  it("then the browser's languages by quality, then Ukrainian", () => {
    expect(chooseLanguage({ accepted: "de, en;q=0.5, uk;q=0.8" })).toBe("uk");
    expect(chooseLanguage({ chosen: "fr", accepted: "en-GB" })).toBe("en");
    expect(chooseLanguage({ accepted: "de, fr" })).toBe("uk");
    expect(chooseLanguage({})).toBe("uk");
  });

  it("ignores languages asked for with q=0", () => {
    expect(languageFromAcceptHeader("en;q=0, uk;q=0.1")).toBe("uk");
    expect(languageFromAcceptHeader("en;q=0")).toBeUndefined();
  });
});
