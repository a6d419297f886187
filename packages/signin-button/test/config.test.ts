import { describe, expect, it } from "vitest";
import { defaultConfig, readConfig, signInUrl, toAttributes } from "../src/config.ts";

function host(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement("div");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

describe("reading the data attributes", () => {
  it("falls back to the documented defaults", () => {
    expect(readConfig(host({ "data-app-id": "abc" }))).toEqual({ ...defaultConfig, appId: "abc" });
    expect(defaultConfig).toMatchObject({ size: "large", color: "brand", logoAlignment: "left", locale: "uk" });
  });

  it("reads every attribute existing sites carry", () => {
    const config = readConfig(
      host({
        "data-app-id": " 7d1c ",
        "data-size": "small",
        "data-color": "outline",
        "data-logo-alignment": "right",
        "data-caption": "Увійти через кампус",
        "data-locale": "en",
        "data-full-width": "true",
        "data-class-name": "my-btn wide",
        "data-dev-mode": "",
      }),
    );
    expect(config).toEqual({
      appId: "7d1c",
      size: "small",
      color: "outline",
      logoAlignment: "right",
      caption: "Увійти через кампус",
      locale: "en",
      fullWidth: true,
      className: "my-btn wide",
      devMode: true,
    });
  });

  it("ignores unknown values and treats the text false as off", () => {
    const config = readConfig(
      host({
        "data-app-id": "a",
        "data-size": "huge",
        "data-color": "pink",
        "data-locale": "de",
        "data-logo-alignment": "centre",
        "data-full-width": "false",
        "data-dev-mode": "FALSE",
      }),
    );
    expect(config).toMatchObject({
      size: "large",
      color: "brand",
      locale: "uk",
      logoAlignment: "left",
      fullWidth: false,
      devMode: false,
    });
  });
});

describe("the attributes a snippet carries", () => {
  it("leaves out empty values and false", () => {
    expect(toAttributes({ ...defaultConfig, appId: "app-1" })).toEqual([
      ["data-app-id", "app-1"],
      ["data-size", "large"],
      ["data-color", "brand"],
      ["data-logo-alignment", "left"],
      ["data-locale", "uk"],
    ]);
  });

  it("keeps true flags, captions and class names", () => {
    const pairs = toAttributes({ appId: "x", caption: "Go", fullWidth: true, devMode: true, className: "c" });
    expect(pairs).toEqual([
      ["data-app-id", "x"],
      ["data-caption", "Go"],
      ["data-full-width", "true"],
      ["data-class-name", "c"],
      ["data-dev-mode", "true"],
    ]);
  });
});

describe("the sign-in address", () => {
  it("is the service's localized sign-in page with the app id encoded", () => {
    expect(signInUrl("https://id.kpi.ua", { appId: "a b&c", locale: "en" })).toBe(
      "https://id.kpi.ua/en/?appId=a+b%26c",
    );
  });
});
