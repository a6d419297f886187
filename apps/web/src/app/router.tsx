import type { ComponentType } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import type { TitleHandle } from "@/lib/document-title.ts";
import type { NamespacedKey } from "@/lib/i18n.ts";
import { LanguageRedirect, LanguageRoot } from "./language-root.tsx";
import { PrivateLayout, PublicLayout } from "./layouts/layouts.tsx";
import { GoogleAuthRoute } from "./routes/google-auth.tsx";
import { LoginRoute } from "./routes/login-route.tsx";
import { RouteError } from "./routes/route-error.tsx";

// Takes the whole key, not its last part: the build's locale check sees only keys written out in full.
function title(key: NamespacedKey): TitleHandle {
  return { title: key };
}

// The login route is in the first bundle; every other page loads when first visited.

/** Pages under /{lang}/ with the public layout (FAQ link in the footer). */
export const publicPages: RouteObject[] = [
  { index: true, Component: LoginRoute, handle: title("common:titles.login") },
  {
    path: "diia",
    handle: title("common:titles.diia"),
    lazy: async () => ({ Component: (await import("./routes/diia.tsx")).DiiaRoute }),
  },
  {
    path: "bankid-auth",
    handle: title("common:titles.bankid"),
    lazy: async () => ({ Component: (await import("./routes/bankid-auth.tsx")).BankIdAuthRoute }),
  },
  {
    path: "institution",
    handle: title("common:titles.institution"),
    lazy: async () => ({ Component: (await import("./routes/institution.tsx")).InstitutionRoute }),
  },
  {
    path: "faq",
    handle: title("common:titles.faq"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).FaqRoute }),
  },
  {
    path: "consent",
    handle: title("common:titles.consent"),
    lazy: async () => ({ Component: (await import("./routes/consent.tsx")).ConsentRoute }),
  },
  {
    path: "device",
    handle: title("common:titles.device"),
    lazy: async () => ({ Component: (await import("./routes/device.tsx")).DeviceRoute }),
  },
  {
    path: "auth-success",
    handle: title("common:titles.authSuccess"),
    lazy: async () => ({ Component: (await import("./routes/auth-success.tsx")).AuthSuccessRoute }),
  },
  {
    path: "forgot-password",
    handle: title("common:titles.forgotPassword"),
    lazy: async () => ({ Component: (await import("./routes/forgot-password.tsx")).ForgotPasswordRoute }),
  },
  {
    path: "reset-password",
    handle: title("common:titles.resetPassword"),
    lazy: async () => ({ Component: (await import("./routes/reset-password.tsx")).ResetPasswordRoute }),
  },
  {
    path: "button-wizard",
    handle: title("common:titles.buttonWizard"),
    lazy: async () => ({ Component: (await import("./routes/button-wizard.tsx")).ButtonWizardRoute }),
  },
];

/** Pages under /{lang}/ with the private layout (privacy policy and terms in the footer). */
export const privatePages: RouteObject[] = [
  {
    path: "apps",
    handle: title("common:titles.apps"),
    lazy: async () => ({ Component: (await import("./routes/apps.tsx")).AppsRoute }),
  },
  {
    path: "account",
    handle: title("common:titles.account"),
    lazy: async () => ({ Component: (await import("./routes/account.tsx")).AccountRoute }),
  },
  {
    path: "developers",
    handle: title("common:titles.developers"),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("./routes/developers.tsx")).DevelopersRoute }),
      },
      {
        path: ":id",
        lazy: async () => ({ Component: (await import("./routes/developers.tsx")).DeveloperApplicationRoute }),
      },
    ],
  },
  {
    path: "admin",
    handle: title("common:titles.admin"),
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminPeopleRoute }) },
      {
        path: "people/:id",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminPersonRoute }),
      },
      {
        path: "applications",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminApplicationsRoute }),
      },
      {
        path: "applications/:id",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminApplicationRoute }),
      },
      {
        path: "reviews",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminReviewsRoute }),
      },
      {
        path: "import",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminImportRoute }),
      },
      {
        path: "audit",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminAuditRoute }),
      },
      {
        path: "keys",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminKeysRoute }),
      },
      {
        path: "service",
        lazy: async () => ({ Component: (await import("./routes/admin.tsx")).AdminServiceRoute }),
      },
    ],
  },
  {
    path: "privacy-policy",
    handle: title("common:titles.privacy"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).PrivacyPolicyRoute }),
  },
  {
    path: "terms-of-use",
    handle: title("common:titles.terms"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).TermsOfUseRoute }),
  },
  {
    path: "*",
    handle: title("common:titles.notFound"),
    lazy: async () => ({ Component: (await import("./routes/not-found.tsx")).NotFoundRoute }),
  },
];

function BlankFallback() {
  return null;
}

/** A layout whose pages share one error screen, shown inside the layout so header and footer stay. */
export function layoutGroup(Layout: ComponentType, pages: RouteObject[]): RouteObject {
  return { Component: Layout, children: [{ ErrorBoundary: RouteError, children: pages }] };
}

export function createRoutes(): RouteObject[] {
  return [
    { path: "/", Component: LanguageRedirect },
    {
      // Google's answer lands outside a language segment, but in the same layout as every other page.
      path: "/google-auth",
      Component: PublicLayout,
      children: [{ index: true, Component: GoogleAuthRoute, handle: title("common:titles.google") }],
    },
    { path: "/auth-success", Component: LanguageRedirect },
    {
      path: "/:lang",
      Component: LanguageRoot,
      // A blank instant while the first lazy page of a visit loads, instead of a router warning.
      HydrateFallback: BlankFallback,
      children: [layoutGroup(PublicLayout, publicPages), layoutGroup(PrivateLayout, privatePages)],
    },
    { path: "*", element: <Navigate to="/" replace /> },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
