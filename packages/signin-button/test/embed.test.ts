import { describe, expect, it } from "vitest";

describe("the kpi-id-signin.js entry", () => {
  it("takes the service origin from its own src and exposes an idempotent KPIID.init()", async () => {
    document.body.innerHTML = `<div id="kpi_id_signin" data-app-id="demo"></div>`;
    const script = document.createElement("script");
    script.src = "https://id.kpi.example/kpi-id-signin.js";
    Object.defineProperty(document, "currentScript", { value: script, configurable: true });
    await import("../src/embed.ts");
    expect(window.KPIID?.serviceOrigin).toBe("https://id.kpi.example");
    expect(document.querySelector("#kpi_id_signin a")?.getAttribute("href")).toBe(
      "https://id.kpi.example/uk/?appId=demo",
    );
    document.body.insertAdjacentHTML("beforeend", `<div data-kpi-id-signin data-app-id="later"></div>`);
    expect(window.KPIID?.init()).toHaveLength(2);
    expect(document.querySelectorAll("a.kpi-id-btn")).toHaveLength(2);
  });
});
