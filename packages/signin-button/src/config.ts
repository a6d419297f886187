/**
 * The button's configuration: what a page writes as data attributes on
 * `#kpi_id_signin` / `[data-kpi-id-signin]` and what the wizard edits.
 * The attribute names are the ones existing campus sites already carry.
 */
export const sizes = ["small", "medium", "large"] as const;
export const colors = ["brand", "outline"] as const;
export const logoAlignments = ["left", "right"] as const;
export const locales = ["uk", "en"] as const;

export type ButtonSize = (typeof sizes)[number];
export type ButtonColor = (typeof colors)[number];
export type LogoAlignment = (typeof logoAlignments)[number];
export type ButtonLocale = (typeof locales)[number];

export interface ButtonConfig {
  appId: string;
  size: ButtonSize;
  color: ButtonColor;
  logoAlignment: LogoAlignment;
  caption: string;
  locale: ButtonLocale;
  fullWidth: boolean;
  className: string;
  devMode: boolean;
}

export const defaultConfig: ButtonConfig = {
  appId: "",
  size: "large",
  color: "brand",
  logoAlignment: "left",
  caption: "",
  locale: "uk",
  fullWidth: false,
  className: "",
  devMode: false,
};

export const defaultCaptions: Record<ButtonLocale, string> = {
  uk: "Увійти з KPI ID",
  en: "Sign in with KPI ID",
};

/** Config key → data attribute, in the order snippets list them. */
export const attributeNames: Record<keyof ButtonConfig, string> = {
  appId: "data-app-id",
  size: "data-size",
  color: "data-color",
  logoAlignment: "data-logo-alignment",
  caption: "data-caption",
  locale: "data-locale",
  fullWidth: "data-full-width",
  className: "data-class-name",
  devMode: "data-dev-mode",
};

function oneOf<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  const normalized = value?.trim().toLowerCase();
  return allowed.find((option) => option === normalized) ?? fallback;
}

/** A present attribute is on unless it says "false" (so `data-full-width` alone works). */
function flag(value: string | null): boolean {
  return value !== null && value.trim().toLowerCase() !== "false";
}

export function readConfig(element: Element): ButtonConfig {
  const read = (key: keyof ButtonConfig) => element.getAttribute(attributeNames[key]);
  return {
    appId: read("appId")?.trim() ?? "",
    size: oneOf(sizes, read("size"), defaultConfig.size),
    color: oneOf(colors, read("color"), defaultConfig.color),
    logoAlignment: oneOf(logoAlignments, read("logoAlignment"), defaultConfig.logoAlignment),
    caption: read("caption")?.trim() ?? "",
    locale: oneOf(locales, read("locale"), defaultConfig.locale),
    fullWidth: flag(read("fullWidth")),
    className: read("className")?.trim() ?? "",
    devMode: flag(read("devMode")),
  };
}

/**
 * The data attributes for a configuration, as a page should carry them:
 * attributes whose value is empty or the text "false" are left out.
 */
export function toAttributes(config: Partial<ButtonConfig>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(attributeNames) as (keyof ButtonConfig)[]) {
    const value = String(config[key] ?? "").trim();
    if (value === "" || value === "false") continue;
    pairs.push([attributeNames[key], value]);
  }
  return pairs;
}

/** Where the button sends the person: the sign-in page of the service, with the app. */
export function signInUrl(serviceOrigin: string, config: Pick<ButtonConfig, "appId" | "locale">): string {
  const url = new URL(`/${config.locale}/`, serviceOrigin);
  url.searchParams.set("appId", config.appId);
  return url.href;
}
