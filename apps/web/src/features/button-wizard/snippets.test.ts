import { defaultConfig } from "@kpi-id/signin-button";
import { describe, expect, it } from "vitest";
import { htmlButtonSnippet, htmlScriptSnippet, reactComponentSnippet, reactHookSnippet } from "./snippets.ts";

describe("the wizard's snippets", () => {
  it("pins the script by its content hash with integrity and crossorigin, when the server told them", () => {
    const pinned = { path: "/kpi-id-signin.Ab12Cd34Ef56.js", integrity: "sha384-abc" };
    expect(htmlScriptSnippet("https://id.kpi.ua", pinned)).toBe(
      '<script src="https://id.kpi.ua/kpi-id-signin.Ab12Cd34Ef56.js" integrity="sha384-abc" crossorigin="anonymous" async></script>',
    );
    const hook = reactHookSnippet("https://id.kpi.ua", pinned);
    expect(hook).toContain('script.src = "https://id.kpi.ua/kpi-id-signin.Ab12Cd34Ef56.js";');
    expect(hook).toContain('script.integrity = "sha384-abc";');
    expect(hook).toContain('script.crossOrigin = "anonymous";');
  });

  it("include the script from the service's own origin", () => {
    expect(htmlScriptSnippet("https://id.kpi.ua")).toBe(
      '<script src="https://id.kpi.ua/kpi-id-signin.js" async></script>',
    );
    expect(reactHookSnippet("https://id.kpi.ua")).toContain('script.src = "https://id.kpi.ua/kpi-id-signin.js";');
  });

  it("leave out attributes that are empty or false, and escape values", () => {
    const html = htmlButtonSnippet({ ...defaultConfig, appId: "app-1", caption: 'Say "hi" <now>' });
    expect(html).toBe(
      '<div id="kpi_id_signin"\n  data-app-id="app-1"\n  data-size="large"\n  data-color="brand"\n' +
        '  data-logo-alignment="left"\n  data-caption="Say &quot;hi&quot; &lt;now&gt;"\n  data-locale="uk"></div>',
    );
    expect(html).not.toContain("data-full-width");
    expect(html).not.toContain("data-dev-mode");
    expect(html).not.toContain("data-class-name");
  });

  it("carry true flags in HTML and React alike", () => {
    const config = { ...defaultConfig, appId: "a", fullWidth: true, devMode: true, locale: "en" as const };
    expect(htmlButtonSnippet(config)).toContain('data-full-width="true"');
    const react = reactComponentSnippet(config);
    expect(react).toContain('data-dev-mode="true"');
    expect(react).toContain('data-locale="en"');
    expect(react).toContain("useKpiIdSignin();");
  });
});
