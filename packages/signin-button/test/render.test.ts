import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAll } from "../src/render.ts";

const options = { serviceOrigin: "https://id.example", nonce: "n0nce" };

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

function page(html: string): void {
  document.body.innerHTML = html;
}

describe("rendering the button", () => {
  it("renders a real link to the sign-in page with the mark and the default caption", () => {
    page(`<div id="kpi_id_signin" data-app-id="app-42"></div>`);
    const [button] = renderAll(document, options);
    expect(button?.tagName).toBe("A");
    expect(button?.getAttribute("href")).toBe("https://id.example/uk/?appId=app-42");
    expect(button?.textContent).toBe("Увійти з KPI ID");
    expect(button?.querySelector("svg")?.getAttribute("aria-hidden")).toBe("true");
    expect(button?.className).toBe("kpi-id-btn kpi-id-btn--large kpi-id-btn--brand");
    expect(document.querySelector("iframe, script")).toBeNull();
  });

  it("uses the English caption, a given caption, and the classes of the options", () => {
    page(`<div id="kpi_id_signin" data-app-id="a" data-locale="en" data-size="small" data-color="outline"
      data-logo-alignment="right" data-full-width="true" data-dev-mode="true" data-class-name="mine"></div>
      <div data-kpi-id-signin data-app-id="b" data-caption="Вхід для студентів"></div>`);
    const [english, custom] = renderAll(document, options);
    expect(english?.textContent).toBe("Sign in with KPI ID");
    expect(english?.getAttribute("href")).toBe("https://id.example/en/?appId=a");
    expect(english?.classList.value).toBe(
      "kpi-id-btn kpi-id-btn--small kpi-id-btn--outline kpi-id-btn--right kpi-id-btn--full kpi-id-btn--dev mine",
    );
    expect(custom?.textContent).toBe("Вхід для студентів");
  });

  it("renders several buttons on one page", () => {
    page(`<div id="kpi_id_signin" data-app-id="one"></div>
      <p data-kpi-id-signin data-app-id="two"></p><span data-kpi-id-signin data-app-id="three"></span>`);
    const buttons = renderAll(document, options);
    expect(buttons.map((button) => new URL(button.href).searchParams.get("appId"))).toEqual(["one", "two", "three"]);
  });

  it("can be initialised again after a re-render without doubling buttons or styles", () => {
    page(`<div id="kpi_id_signin" data-app-id="one"></div>`);
    renderAll(document, options);
    renderAll(document, options);
    expect(document.querySelectorAll("#kpi_id_signin a")).toHaveLength(1);
    document.querySelector("#kpi_id_signin")?.setAttribute("data-locale", "en");
    renderAll(document, options);
    expect(document.querySelectorAll("#kpi_id_signin a")).toHaveLength(1);
    expect(document.querySelector("#kpi_id_signin a")?.textContent).toBe("Sign in with KPI ID");
    const sheets = document.querySelectorAll("style[data-kpi-id-style]").length + document.adoptedStyleSheets.length;
    expect(sheets).toBe(1);
  });

  it("renders nothing and says why in the console when the app id is missing", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    page(`<div id="kpi_id_signin" data-app-id="  "></div><div data-kpi-id-signin data-app-id="ok"></div>`);
    const buttons = renderAll(document, options);
    expect(buttons).toHaveLength(1);
    expect(document.querySelector("#kpi_id_signin")?.childElementCount).toBe(0);
    expect(error).toHaveBeenCalledOnce();
    expect(String(error.mock.calls[0]?.[0])).toMatch(/^KPI ID:/);
  });
});
