import type { ComponentType } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import type { TitleHandle } from "@/lib/document-title.ts";
import { LanguageRedirect, LanguageRoot } from "./language-root.tsx";
import { PrivateLayout, PublicLayout } from "./layouts/layouts.tsx";
import { GoogleAuthRoute } from "./routes/google-auth.tsx";
import { LoginRoute } from "./routes/login-route.tsx";
import { RouteError } from "./routes/route-error.tsx";

function title(key: string): TitleHandle {
  return { title: `common:titles.${key}` };
}

// The login route is in the first bundle; every other page loads when first visited.

/** Pages under /{lang}/ with the public layout (FAQ link in the footer). */
export const publicPages: RouteObject[] = [
  { index: true, Component: LoginRoute, handle: title("login") },
  {
    path: "diia",
    handle: title("diia"),
    lazy: async () => ({ Component: (await import("./routes/diia.tsx")).DiiaRoute }),
  },
  {
    path: "bankid-auth",
    handle: title("bankid"),
    lazy: async () => ({ Component: (await import("./routes/bankid-auth.tsx")).BankIdAuthRoute }),
  },
  {
    path: "faq",
    handle: title("faq"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).FaqRoute }),
  },
  {
    path: "consent",
    handle: title("consent"),
    lazy: async () => ({ Component: (await import("./routes/consent.tsx")).ConsentRoute }),
  },
  {
    path: "device",
    handle: title("device"),
    lazy: async () => ({ Component: (await import("./routes/device.tsx")).DeviceRoute }),
  },
  {
    path: "auth-success",
    handle: title("authSuccess"),
    lazy: async () => ({ Component: (await import("./routes/auth-success.tsx")).AuthSuccessRoute }),
  },
  {
    path: "forgot-password",
    handle: title("forgotPassword"),
    lazy: async () => ({ Component: (await import("./routes/forgot-password.tsx")).ForgotPasswordRoute }),
  },
  {
    path: "reset-password",
    handle: title("resetPassword"),
    lazy: async () => ({ Component: (await import("./routes/reset-password.tsx")).ResetPasswordRoute }),
  },
  {
    path: "button-wizard",
    handle: title("buttonWizard"),
    lazy: async () => ({ Component: (await import("./routes/button-wizard.tsx")).ButtonWizardRoute }),
  },
];

/** Pages under /{lang}/ with the private layout (privacy policy and terms in the footer). */
export const privatePages: RouteObject[] = [
  {
    path: "apps",
    handle: title("apps"),
    lazy: async () => ({ Component: (await import("./routes/apps.tsx")).AppsRoute }),
  },
  {
    path: "account",
    handle: title("account"),
    lazy: async () => ({ Component: (await import("./routes/account.tsx")).AccountRoute }),
  },
  {
    path: "developers",
    handle: title("developers"),
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
    handle: title("admin"),
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
    handle: title("privacy"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).PrivacyPolicyRoute }),
  },
  {
    path: "terms-of-use",
    handle: title("terms"),
    lazy: async () => ({ Component: (await import("./routes/content-pages.tsx")).TermsOfUseRoute }),
  },
  {
    path: "*",
    handle: title("notFound"),
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
      children: [{ index: true, Component: GoogleAuthRoute, handle: title("google") }],
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
