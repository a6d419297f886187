/**
 * The entry of `kpi-id-signin.js`, the script third-party pages include.
 * The service origin is the origin the script itself was loaded from, and a
 * nonce on the script tag is reused for the style element under a strict CSP.
 */
import type { KpiIdGlobal } from "./global.ts";
import { renderAll } from "./render.ts";

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
