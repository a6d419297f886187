import { describe, expect, it } from "vitest";
import { keepParams, localizedHref, localizePath, returnPathFrom, swapLanguage, withLanguage } from "./paths.ts";

describe("the redirect helper", () => {
  it("adds the current language to a path that lacks it and keeps the query string", () => {
    expect(withLanguage("uk", "/apps", "?appId=42&x=1")).toBe("/uk/apps?appId=42&x=1");
    expect(withLanguage("en", "/", "?appId=42")).toBe("/en/?appId=42");
  });

  it("leaves a path that already has a language alone", () => {
    expect(withLanguage("uk", "/en/faq", "?q=1")).toBe("/en/faq?q=1");
  });
});

describe("localized links", () => {
  it("prefix the language", () => {
    expect(localizePath("en", "/faq")).toBe("/en/faq");
    expect(localizePath("uk", "/")).toBe("/uk/");
  });

  it("keep only the chosen query parameters", () => {
    expect(keepParams("?appId=7&google_auth_error=true", ["appId"])).toBe("?appId=7");
    expect(keepParams("?other=1", ["appId"])).toBe("");
    expect(localizedHref("uk", "/apps", "?appId=a%20b&x=1", ["appId"])).toBe("/uk/apps?appId=a+b");
  });
});

describe("the language switch target", () => {
  it("swaps the language segment and keeps path and query", () => {
    expect(swapLanguage("/uk/faq", "?x=1", "en")).toBe("/en/faq?x=1");
    expect(swapLanguage("/en/", "", "uk")).toBe("/uk/");
    expect(swapLanguage("/", "", "en")).toBe("/en/");
  });
});

describe("the page a sign-in returns to", () => {
  it("is a page of this app a signed-in person opens", () => {
    expect(returnPathFrom("?returnTo=%2Fuk%2Fdevelopers")).toBe("/uk/developers");
    expect(returnPathFrom("?returnTo=/en/developers/0b6f8a52-1c1e-4a9e-9c0e-3a1f5b7c9d21")).toBe(
      "/en/developers/0b6f8a52-1c1e-4a9e-9c0e-3a1f5b7c9d21",
    );
    expect(returnPathFrom("?returnTo=/uk/account")).toBe("/uk/account");
    expect(returnPathFrom("?returnTo=%2Fuk%2Fadmin")).toBe("/uk/admin");
    expect(returnPathFrom("?returnTo=/en/admin/people/0b6f8a52-1c1e-4a9e-9c0e-3a1f5b7c9d21")).toBe(
      "/en/admin/people/0b6f8a52-1c1e-4a9e-9c0e-3a1f5b7c9d21",
    );
  });

  it("is nothing for another site, another page or a path trick", () => {
    for (const value of [
      "https://evil.example/uk/admin",
      "//evil.example/uk/admin",
      "/uk/admin/../../apps",
      "/uk/admin\\@evil.example",
      "/uk/",
      "/uk/apps",
      "/uk/diia",
      "/uk/developers/not-an-id",
      "/de/admin",
      "/uk/admin?x=1",
      "javascript:alert(1)",
      "",
    ]) {
      expect(returnPathFrom(`?${new URLSearchParams({ returnTo: value })}`)).toBeUndefined();
    }
    expect(returnPathFrom("?appId=1")).toBeUndefined();
  });
});
