import type { languagePages } from "@kpi-id/contracts";

type LanguagePage = (typeof languagePages)[number];

/**
 * The module each lazily loaded page imports (the router's `lazy`), and whether it shows only to a
 * signed-in person (behind the protected gate: a signed-out visitor is sent to the login page). The build turns this into the page's chunk files, so the server can name them in the page it
 * writes (`<link rel="modulepreload">`) and the browser fetches them beside the main script instead of
 * after it has run. Vite needs literal paths in `import()`, so the router cannot read this table; the
 * router's test checks the two agree. The login page ("") is in the first load and needs nothing.
 */
export const routeModules: Partial<Record<LanguagePage, { module: string; signedIn: boolean }>> = {
  diia: { module: "src/app/routes/diia.tsx", signedIn: false },
  "bankid-auth": { module: "src/app/routes/bankid-auth.tsx", signedIn: false },
  institution: { module: "src/app/routes/institution.tsx", signedIn: false },
  faq: { module: "src/app/routes/content-pages.tsx", signedIn: false },
  consent: { module: "src/app/routes/consent.tsx", signedIn: false },
  device: { module: "src/app/routes/device.tsx", signedIn: false },
  "auth-success": { module: "src/app/routes/auth-success.tsx", signedIn: false },
  "forgot-password": { module: "src/app/routes/forgot-password.tsx", signedIn: false },
  "reset-password": { module: "src/app/routes/reset-password.tsx", signedIn: false },
  "button-wizard": { module: "src/app/routes/button-wizard.tsx", signedIn: false },
  apps: { module: "src/app/routes/apps.tsx", signedIn: true },
  account: { module: "src/app/routes/account.tsx", signedIn: true },
  developers: { module: "src/app/routes/developers.tsx", signedIn: true },
  admin: { module: "src/app/routes/admin.tsx", signedIn: true },
  "privacy-policy": { module: "src/app/routes/content-pages.tsx", signedIn: false },
  "terms-of-use": { module: "src/app/routes/content-pages.tsx", signedIn: false },
};
