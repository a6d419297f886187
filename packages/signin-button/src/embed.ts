/**
 * The entry of `kpi-id-signin.js`, the script third-party pages include.
 * The service origin is the origin the script itself was loaded from, and a
 * nonce on the script tag is reused for the style element under a strict CSP.
 */
import { renderAll } from "./render.ts";

export interface KpiIdGlobal {
  /** Renders every `#kpi_id_signin` / `[data-kpi-id-signin]` element; safe to call again after a re-render. */
  init(): HTMLAnchorElement[];
  serviceOrigin: string;
}

declare global {
  interface Window {
    KPIID?: KpiIdGlobal;
  }
}

const script = document.currentScript as HTMLScriptElement | null;
const serviceOrigin = script?.src ? new URL(script.src).origin : location.origin;
const nonce = script?.nonce || script?.getAttribute("nonce") || undefined;

const kpiId: KpiIdGlobal = {
  serviceOrigin,
  init: () => renderAll(document, { serviceOrigin, nonce }),
};
window.KPIID = kpiId;

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => kpiId.init());
else kpiId.init();
