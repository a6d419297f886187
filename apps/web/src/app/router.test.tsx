import { isPagePath, languagePages, rootPages } from "@kpi-id/contracts";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { routeModules } from "./route-modules.ts";
import { createRoutes, privatePages, publicPages } from "./router.tsx";

// The server answers 404 for paths outside the contracts' page list, so a page
// added to the router but not to the list would load with a 404 status.
describe("the router's pages", () => {
  it("are exactly the pages the server answers with 200", () => {
    const routerPages = [...publicPages, ...privatePages]
      .filter((route) => route.path !== "*")
      .map((route) => (route.index ? "" : route.path));
    expect(new Set(routerPages)).toEqual(new Set(languagePages));
    const rootPaths = createRoutes()
      .map((route) => route.path)
      .filter((path) => path !== "*" && path !== "/:lang");
    expect(new Set(rootPaths)).toEqual(new Set(rootPages));
  });

  it("are known with and without a trailing slash, in both languages only", () => {
    expect(isPagePath("/uk")).toBe(true);
    expect(isPagePath("/en/apps/")).toBe(true);
    expect(isPagePath("/uk/apps/more")).toBe(false);
    expect(isPagePath("/de/apps")).toBe(false);
    expect(isPagePath("/faq")).toBe(true);
    expect(isPagePath("/faq/")).toBe(true);
    expect(isPagePath("/no-such-thing")).toBe(false);
    expect(isPagePath("/uk/admin")).toBe(true);
    expect(isPagePath("/en/admin/applications")).toBe(true);
    expect(isPagePath("/uk/admin/people/0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a10")).toBe(true);
    expect(isPagePath("/uk/admin/people/nobody")).toBe(false);
    expect(isPagePath("/uk/admin/keys")).toBe(true);
    expect(isPagePath("/en/admin/reviews")).toBe(true);
    expect(isPagePath("/en/admin/reviews/more")).toBe(false);
    expect(isPagePath("/en/admin/service/")).toBe(true);
    expect(isPagePath("/en/admin/applications/0d5c7a7e-3f0b-4b7e-9f51-2f6e8d1c9a10")).toBe(true);
    expect(isPagePath("/en/admin/applications/journal")).toBe(false);
    expect(isPagePath("/uk/admin/keys/more")).toBe(false);
  });
});

/** The modules a route's `lazy` (or its children's) imports, read from the function's code. */
function lazyModules(route: RouteObject): string[] {
  const own = [...String(route.lazy ?? "").matchAll(/import__\("\/([^"]+)"\)|import\("\.\/([^"]+)"\)/g)].map(
    (match) => match[1] ?? `src/app/${match[2]}`,
  );
  return [...own, ...(route.children ?? []).flatMap(lazyModules)];
}

// The server preloads the chunks the build found for these modules; a wrong one would preload another page.
describe("the table of lazily loaded page modules", () => {
  it("names the module the router loads for every lazy page, and no other page", () => {
    const lazyPages = [...publicPages, ...privatePages].filter((route) => route.path && route.path !== "*");
    for (const route of lazyPages) {
      const modules = new Set(lazyModules(route));
      expect(modules.size, route.path).toBe(1);
      expect(routeModules[route.path as keyof typeof routeModules]?.module, route.path).toBe([...modules][0]);
    }
    expect(Object.keys(routeModules).sort()).toEqual(lazyPages.map((route) => route.path).sort());
  });

  it("marks as signed-in only the pages behind the protected gate or the console", () => {
    const signedIn = Object.entries(routeModules).filter(([, entry]) => entry.signedIn);
    expect(signedIn.map(([page]) => page).sort()).toEqual(["account", "admin", "apps", "developers"]);
  });
});
