import type { languagePages } from "@kpi-id/contracts";
import type { NamespacedKey } from "@/lib/i18n.ts";

/** A page under /{lang}/ that loads when first visited (the login page, "", is in the first load). */
export type LazyPagePath = Exclude<(typeof languagePages)[number], "">;

/** A route the page's module answers, by the name the module exports for it. */
export interface PageRoute {
  /** Under the page's path ("people/:id"); none for the page itself. */
  path?: string;
  component: string;
}

export interface LazyPage {
  path: LazyPagePath;
  /** The module in src/app/pages/ that the router loads for the page, and whose chunks the server preloads. */
  file: string;
  title: NamespacedKey;
  /** The public layout (FAQ link in the footer) or the private one (privacy policy and terms). */
  layout: "public" | "private";
  /** Only for a signed-in person (behind the protected gate or the console): preloaded only with a session cookie. */
  signedIn: boolean;
  /** The page's own route first, then the routes under it. */
  routes: [PageRoute, ...PageRoute[]];
}

const page = (component: string): [PageRoute] => [{ component }];

/**
 * Every lazily loaded page, written once: the router is built from it (router.tsx) and the build turns it into
 * each page's chunk files (scripts/route-preloads.ts), so the server can name them in the page it writes
 * (`<link rel="modulepreload">`) and the browser fetches them beside the main script instead of after it has run.
 */
export const lazyPages: LazyPage[] = [
  {
    path: "diia",
    file: "diia.tsx",
    title: "common:titles.diia",
    layout: "public",
    signedIn: false,
    routes: page("DiiaRoute"),
  },
  {
    path: "bankid-auth",
    file: "bankid-auth.tsx",
    title: "common:titles.bankid",
    layout: "public",
    signedIn: false,
    routes: page("BankIdAuthRoute"),
  },
  {
    path: "faq",
    file: "content-pages.tsx",
    title: "common:titles.faq",
    layout: "public",
    signedIn: false,
    routes: page("FaqRoute"),
  },
  {
    path: "consent",
    file: "consent.tsx",
    title: "common:titles.consent",
    layout: "public",
    signedIn: false,
    routes: page("ConsentRoute"),
  },
  {
    path: "device",
    file: "device.tsx",
    title: "common:titles.device",
    layout: "public",
    signedIn: false,
    routes: page("DeviceRoute"),
  },
  {
    path: "auth-success",
    file: "auth-success.tsx",
    title: "common:titles.authSuccess",
    layout: "public",
    signedIn: false,
    routes: page("AuthSuccessRoute"),
  },
  {
    path: "forgot-password",
    file: "forgot-password.tsx",
    title: "common:titles.forgotPassword",
    layout: "public",
    signedIn: false,
    routes: page("ForgotPasswordRoute"),
  },
  {
    path: "reset-password",
    file: "reset-password.tsx",
    title: "common:titles.resetPassword",
    layout: "public",
    signedIn: false,
    routes: page("ResetPasswordRoute"),
  },
  {
    path: "institution",
    file: "institution.tsx",
    title: "common:titles.institution",
    layout: "public",
    signedIn: false,
    routes: page("InstitutionRoute"),
  },
  {
    path: "guest",
    file: "guest-invitation.tsx",
    title: "common:titles.guestInvitation",
    layout: "public",
    signedIn: false,
    routes: page("GuestInvitationRoute"),
  },
  {
    path: "button-wizard",
    file: "button-wizard.tsx",
    title: "common:titles.buttonWizard",
    layout: "public",
    signedIn: false,
    routes: page("ButtonWizardRoute"),
  },
  {
    path: "apps",
    file: "apps.tsx",
    title: "common:titles.apps",
    layout: "private",
    signedIn: true,
    routes: page("AppsRoute"),
  },
  {
    path: "account",
    file: "account.tsx",
    title: "common:titles.account",
    layout: "private",
    signedIn: true,
    routes: page("AccountRoute"),
  },
  {
    path: "developers",
    file: "developers.tsx",
    title: "common:titles.developers",
    layout: "private",
    signedIn: true,
    routes: [{ component: "DevelopersRoute" }, { path: ":id", component: "DeveloperApplicationRoute" }],
  },
  {
    path: "admin",
    file: "admin.tsx",
    title: "common:titles.admin",
    layout: "private",
    signedIn: true,
    routes: [
      { component: "AdminPeopleRoute" },
      { path: "people/:id", component: "AdminPersonRoute" },
      { path: "applications", component: "AdminApplicationsRoute" },
      { path: "applications/:id", component: "AdminApplicationRoute" },
      { path: "reviews", component: "AdminReviewsRoute" },
      { path: "import", component: "AdminImportRoute" },
      { path: "audit", component: "AdminAuditRoute" },
      { path: "keys", component: "AdminKeysRoute" },
      { path: "service", component: "AdminServiceRoute" },
      { path: "ldap", component: "AdminLdapRoute" },
      { path: "guests", component: "AdminGuestsRoute" },
    ],
  },
  {
    path: "privacy-policy",
    file: "content-pages.tsx",
    title: "common:titles.privacy",
    layout: "private",
    signedIn: false,
    routes: page("PrivacyPolicyRoute"),
  },
  {
    path: "terms-of-use",
    file: "content-pages.tsx",
    title: "common:titles.terms",
    layout: "private",
    signedIn: false,
    routes: page("TermsOfUseRoute"),
  },
];
