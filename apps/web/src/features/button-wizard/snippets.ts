import { type ButtonConfig, toAttributes } from "@kpi-id/signin-button";

const htmlEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeAttribute = (value: string) =>
  value.replace(/[&<>"]/g, (character) => htmlEntities[character] ?? character);

/** The content-hashed script and its Subresource Integrity, when the server told them (GET /api/signin-script). */
export interface PinnedScript {
  path: string;
  integrity: string;
}

export function scriptUrl(serviceOrigin: string, pinned?: PinnedScript): string {
  return `${serviceOrigin}${pinned?.path ?? "/kpi-id-signin.js"}`;
}

/**
 * HTML section 1: the script include; pinned, the exact script by its content hash with `integrity`
 * (the browser refuses any other bytes) and `crossorigin` (integrity needs a CORS fetch).
 */
export function htmlScriptSnippet(serviceOrigin: string, pinned?: PinnedScript): string {
  const integrity = pinned ? ` integrity="${pinned.integrity}" crossorigin="anonymous"` : "";
  return `<script src="${scriptUrl(serviceOrigin, pinned)}"${integrity} async></script>`;
}

/** HTML section 2: the button element; empty and false attributes are left out. */
export function htmlButtonSnippet(config: ButtonConfig): string {
  const attributes = toAttributes(config).map(([name, value]) => `\n  ${name}="${escapeAttribute(value)}"`);
  return `<div id="kpi_id_signin"${attributes.join("")}></div>`;
}

/** React section 1: a hook that loads the script once and (re)initialises the buttons. */
export function reactHookSnippet(serviceOrigin: string, pinned?: PinnedScript): string {
  const integrity = pinned
    ? `\n      script.integrity = "${pinned.integrity}";\n      script.crossOrigin = "anonymous";`
    : "";
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
      script.src = "${scriptUrl(serviceOrigin, pinned)}";${integrity}
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
