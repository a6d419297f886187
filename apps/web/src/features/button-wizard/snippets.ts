import { type ButtonConfig, toAttributes } from "@kpi-id/signin-button";

const htmlEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeAttribute = (value: string) =>
  value.replace(/[&<>"]/g, (character) => htmlEntities[character] ?? character);

export function scriptUrl(serviceOrigin: string): string {
  return `${serviceOrigin}/kpi-id-signin.js`;
}

/** HTML section 1: the script include. */
export function htmlScriptSnippet(serviceOrigin: string): string {
  return `<script src="${scriptUrl(serviceOrigin)}" async></script>`;
}

/** HTML section 2: the button element; empty and false attributes are left out. */
export function htmlButtonSnippet(config: ButtonConfig): string {
  const attributes = toAttributes(config).map(([name, value]) => `\n  ${name}="${escapeAttribute(value)}"`);
  return `<div id="kpi_id_signin"${attributes.join("")}></div>`;
}

/** React section 1: a hook that loads the script once and (re)initialises the buttons. */
export function reactHookSnippet(serviceOrigin: string): string {
  return `import { useEffect } from "react";

declare global {
  interface Window { KPIID?: { init(): void } }
}

export function useKpiIdSignin(deps: unknown[] = []) {
  useEffect(() => {
    const ready = () => window.KPIID?.init();
    let script = document.querySelector<HTMLScriptElement>("script[data-kpi-id]");
    if (!script) {
      script = document.createElement("script");
      script.src = "${scriptUrl(serviceOrigin)}";
      script.async = true;
      script.dataset.kpiId = "";
      document.head.append(script);
    }
    script.addEventListener("load", ready);
    ready();
    return () => script?.removeEventListener("load", ready);
  }, deps);
}`;
}

/** React section 2: the component carrying the configuration. */
export function reactComponentSnippet(config: ButtonConfig): string {
  const attributes = toAttributes(config).map(([name, value]) => `\n      ${name}=${JSON.stringify(value)}`);
  return `import { useKpiIdSignin } from "./use-kpi-id-signin";

export function KpiIdSigninButton() {
  useKpiIdSignin();
  return (
    <div
      id="kpi_id_signin"${attributes.join("")}
    />
  );
}`;
}
