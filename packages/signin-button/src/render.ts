import { type ButtonConfig, defaultCaptions, readConfig, signInUrl } from "./config.ts";
import { installStyles } from "./styles.ts";

const svgNs = "http://www.w3.org/2000/svg";
export const selector = "#kpi_id_signin,[data-kpi-id-signin]";

function svgElement(doc: Document, name: string, attributes: Record<string, string>): SVGElement {
  const element = doc.createElementNS(svgNs, name) as SVGElement;
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** The KPI ID mark: a rounded tile with a "K" cut into it. Decorative; the caption names the link. */
function mark(doc: Document): SVGElement {
  const svg = svgElement(doc, "svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
  svg.append(
    svgElement(doc, "rect", { width: "24", height: "24", rx: "6" }),
    svgElement(doc, "path", { d: "M8.5 6.5v11M16 6.5l-5.5 5.5 5.5 5.5" }),
  );
  return svg;
}

export function buttonClasses(config: ButtonConfig): string[] {
  const classes = ["kpi-id-btn", `kpi-id-btn--${config.size}`, `kpi-id-btn--${config.color}`];
  if (config.logoAlignment === "right") classes.push("kpi-id-btn--right");
  if (config.fullWidth) classes.push("kpi-id-btn--full");
  if (config.devMode) classes.push("kpi-id-btn--dev");
  return [...classes, ...config.className.split(/\s+/).filter(Boolean)];
}

/** Builds the link for one configuration; the caller places it. */
export function createButton(doc: Document, serviceOrigin: string, config: ButtonConfig): HTMLAnchorElement {
  const link = doc.createElement("a");
  link.href = signInUrl(serviceOrigin, config);
  link.className = buttonClasses(config).join(" ");
  const caption = doc.createElement("span");
  caption.textContent = config.caption || defaultCaptions[config.locale];
  link.append(mark(doc), caption);
  return link;
}

export interface RenderOptions {
  serviceOrigin: string;
  nonce?: string | undefined;
}

/**
 * Renders (or re-renders) the button inside one host element. Replacing the
 * children makes repeated calls safe: a host never holds two buttons.
 */
export function renderInto(host: Element, options: RenderOptions): HTMLAnchorElement | undefined {
  const config = readConfig(host);
  if (!config.appId) {
    console.error("KPI ID: data-app-id is missing on the sign-in element; the button is not shown.", host);
    host.replaceChildren();
    return undefined;
  }
  const doc = host.ownerDocument;
  installStyles(doc, options.nonce);
  const button = createButton(doc, options.serviceOrigin, config);
  host.replaceChildren(button);
  if (config.devMode) console.info("KPI ID: dev mode button", config);
  return button;
}

/** Renders every sign-in element of the document; returns the buttons shown. */
export function renderAll(doc: Document, options: RenderOptions): HTMLAnchorElement[] {
  const buttons: HTMLAnchorElement[] = [];
  for (const host of doc.querySelectorAll(selector)) {
    const button = renderInto(host, options);
    if (button) buttons.push(button);
  }
  return buttons;
}
