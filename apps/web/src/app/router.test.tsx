import { isPagePath, languagePages, rootPages } from "@kpi-id/contracts";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { lazyPages } from "./page-table.ts";
import { createRoutes, pageFiles, privatePages, publicPages } from "./router.tsx";

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

// The server preloads the chunks the build found for the table's modules; a wrong one would preload another page.
describe("the table of lazily loaded pages", () => {
  it("names a module the router can load for every page, and each page once", () => {
    for (const page of lazyPages) expect(pageFiles, page.path).toContain(page.file);
    const paths = lazyPages.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("marks as signed-in only the pages behind the protected gate or the console", () => {
    const signedIn = lazyPages.filter((page) => page.signedIn).map((page) => page.path);
    expect(signedIn.sort()).toEqual(["account", "admin", "apps", "developers"]);
  });

  it("loads each route's component from its module", async () => {
    const lazyRoutes = (routes: RouteObject[]): RouteObject[] =>
      routes.flatMap((route) => [...(route.lazy ? [route] : []), ...lazyRoutes(route.children ?? [])]);
    for (const route of lazyRoutes([...publicPages, ...privatePages])) {
      const loaded = await (route.lazy as () => Promise<{ Component?: unknown }>)();
      expect(loaded.Component, route.path ?? "index").toBeTypeOf("function");
    }
  });
});
