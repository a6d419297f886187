import type { ComponentType } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import type { TitleHandle } from "@/lib/document-title.ts";
import type { NamespacedKey } from "@/lib/i18n.ts";
import { LanguageRedirect, LanguageRoot } from "./language-root.tsx";
import { PrivateLayout, PublicLayout } from "./layouts/layouts.tsx";
import { type LazyPage, lazyPages } from "./page-table.ts";
import { GoogleAuthRoute } from "./routes/google-auth.tsx";
import { LoginRoute } from "./routes/login-route.tsx";
import { RouteError } from "./routes/route-error.tsx";

// Takes the whole key, not its last part: the build's locale check sees only keys written out in full.
function title(key: NamespacedKey): TitleHandle {
  return { title: key };
}

// The login route is in the first bundle; every other page loads when first visited, its module one of
// src/app/pages/ (Vite needs the folder written out here; page-table.ts says which module each page is).
const pageModules = import.meta.glob<Record<string, ComponentType>>("./pages/*.tsx");

/** The file names the router can load, for the page table's test. */
export const pageFiles = Object.keys(pageModules).map((key) => key.replace("./pages/", ""));

function lazyComponent(file: string, component: string): RouteObject["lazy"] {
  const load = pageModules[`./pages/${file}`];
  if (!load) throw new Error(`page-table.ts names src/app/pages/${file}, which is not there`);
  return async () => {
    const Component = (await load())[component];
    if (!Component) throw new Error(`src/app/pages/${file} exports no ${component}`);
    return { Component };
  };
}

function pageRoute(page: LazyPage): RouteObject {
  const [own, ...under] = page.routes;
  const handle = title(page.title);
  if (under.length === 0) return { path: page.path, handle, lazy: lazyComponent(page.file, own.component) };
  return {
    path: page.path,
    handle,
    children: [
      { index: true, lazy: lazyComponent(page.file, own.component) },
      ...under.map((route) => ({ path: route.path, lazy: lazyComponent(page.file, route.component) })),
    ],
  };
}

const pagesWith = (layout: LazyPage["layout"]) => lazyPages.filter((page) => page.layout === layout).map(pageRoute);

/** Pages under /{lang}/ with the public layout (FAQ link in the footer). */
export const publicPages: RouteObject[] = [
  { index: true, Component: LoginRoute, handle: title("common:titles.login") },
  ...pagesWith("public"),
];

/** Pages under /{lang}/ with the private layout (privacy policy and terms in the footer). */
export const privatePages: RouteObject[] = [
  ...pagesWith("private"),
  { path: "*", handle: title("common:titles.notFound"), lazy: lazyComponent("not-found.tsx", "NotFoundRoute") },
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
