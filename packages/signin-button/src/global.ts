/** What kpi-id-signin.js puts on window. */
export interface KpiIdGlobal {
  /** Renders every `#kpi_id_signin` / `[data-kpi-id-signin]` element; safe to call again after a re-render. */
  init(): HTMLAnchorElement[];
  /** The KPI ID origin the script was loaded from. */
  serviceOrigin: string;
}

declare global {
  interface Window {
    KPIID?: KpiIdGlobal;
  }
}
