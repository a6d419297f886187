import i18next from "i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { languageDetector, localeBackend } from "./i18n-loading.ts";

function clearCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the detector itself reads document.cookie; the test sets it the same way
  document.cookie = "i18next=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT";
}

async function detect(path: string): Promise<string> {
  window.history.replaceState(null, "", path);
  const instance = i18next.createInstance();
  await instance.use(languageDetector).init({
    supportedLngs: ["uk", "en"],
    fallbackLng: "uk",
    load: "languageOnly",
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
    // Read as the server reads the segment (contracts' requestedLanguage), so the page and the app agree.
    expect(await detect("/de,en-GB/faq")).toBe("en");
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

describe("translations the page did not bring", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function load(status: number, body: unknown) {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify(body), { status }));
    vi.stubGlobal("fetch", fetchSpy);
    const instance = i18next.createInstance();
    await instance.use(localeBackend).init({ lng: "en", fallbackLng: false, ns: ["pages"], defaultNS: "pages" });
    return { instance, fetchSpy };
  }

  it("load from /locales/{language}/{namespace}.json", async () => {
    const { instance, fetchSpy } = await load(200, { faq: { title: "Questions" } });
    expect(fetchSpy).toHaveBeenCalledWith("/locales/en/pages.json");
    expect(instance.t("faq.title")).toBe("Questions");
  });

  it("leave the key showing when the file is missing", async () => {
    const { instance } = await load(404, {});
    expect(instance.t("faq.title")).toBe("faq.title");
  });
});
