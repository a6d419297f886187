import { type RefObject, useEffect, useRef } from "react";
import { type ButtonConfig, toAttributes } from "./config.ts";
import { renderInto } from "./render.ts";

export interface KpiIdSigninProps extends Partial<Omit<ButtonConfig, "appId">> {
  /** The application id from `npx kpi-id app create`. */
  appId: string;
  /** Origin of the KPI ID service, e.g. https://id.kpi.ua. */
  serviceOrigin: string;
  /** Nonce for the style element under a strict CSP without constructable style sheets. */
  nonce?: string;
}

/** Data attributes for a host element, with the same omissions as the HTML snippet. */
export function signinAttributes(config: Partial<ButtonConfig>): Record<string, string> {
  return Object.fromEntries(toAttributes(config));
}

/**
 * Renders the KPI ID button into the element behind `ref` and again whenever the
 * configuration changes; the element carries the configuration as data attributes.
 */
export function useKpiIdSignin(ref: RefObject<HTMLElement | null>, props: KpiIdSigninProps): void {
  const { serviceOrigin, nonce, ...config } = props;
  const key = JSON.stringify(config);
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    for (const attribute of Array.from(host.attributes)) {
      if (attribute.name.startsWith("data-") && attribute.name !== "data-kpi-id-signin") {
        host.removeAttribute(attribute.name);
      }
    }
    for (const [name, value] of toAttributes(JSON.parse(key) as Partial<ButtonConfig>)) host.setAttribute(name, value);
    renderInto(host, { serviceOrigin, nonce });
  }, [ref, key, serviceOrigin, nonce]);
}

/** The "Sign in with KPI ID" button as a React component. */
export function KpiIdSignin(props: KpiIdSigninProps) {
  const ref = useRef<HTMLDivElement>(null);
  useKpiIdSignin(ref, props);
  return <div ref={ref} data-kpi-id-signin="" />;
}
