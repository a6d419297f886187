import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { afterEach, describe, expect, it } from "vitest";
import { detectionOptions, kpiIdDetector } from "./i18n.ts";

function clearCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the detector itself reads document.cookie; the test sets it the same way
  document.cookie = "i18next=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT";
}

async function detect(path: string): Promise<string> {
  window.history.replaceState(null, "", path);
  const instance = i18next.createInstance();
  const detector = new LanguageDetector();
  detector.addDetector(kpiIdDetector);
  await instance.use(detector).init({
    supportedLngs: ["uk", "en"],
    fallbackLng: "uk",
    load: "languageOnly",
    detection: detectionOptions,
    resources: {},
  });
  return instance.language;
}

describe("language detection", () => {
  afterEach(() => {
    clearCookie();
    localStorage.clear();
    window.history.replaceState(null, "", "/");
  });

  it("takes the first path segment before the cookie and local storage", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: see clearCookie
    document.cookie = "i18next=uk; path=/";
    localStorage.setItem("i18nextLng", "uk");
    expect(await detect("/en/faq")).toBe("en");
  });

  it("falls back to the cookie, then to local storage, then to Ukrainian", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: see clearCookie
    document.cookie = "i18next=en; path=/";
    localStorage.setItem("i18nextLng", "uk");
    expect(await detect("/google-auth")).toBe("en");

    clearCookie();
    localStorage.setItem("i18nextLng", "en");
    expect(await detect("/google-auth")).toBe("en");

    // Each detection caches its answer, so both stores are emptied before the last one.
    clearCookie();
    localStorage.clear();
    expect(await detect("/google-auth")).toBe("uk");
  });

  it("remembers the detected language in both the cookie and local storage", async () => {
    await detect("/en/apps");
    expect(document.cookie).toContain("i18next=en");
    expect(localStorage.getItem("i18nextLng")).toBe("en");
  });
});
