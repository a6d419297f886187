import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProvider } from "@/app/provider.tsx";
import { createRoutes } from "@/app/router.tsx";
import { createQueryClient } from "@/lib/query-client.ts";

/** The whole app (real routes, providers and translations) at one URL, in memory. */
export function renderApp(path: string) {
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}

export const student = {
  fullName: "Олена Коваленко",
  data: {
    NAME: "Олена Коваленко",
    EMAIL: "olena@kpi.ua",
    TAX_ID: "3012345678",
    STUDENT_ID: "KV-2431",
    EMPLOYEE_ID: "",
    AUTH_METHOD: "PASSWORD",
  },
  applications: [
    { id: "11111111-1111-4111-8111-111111111111", name: "campus", title: "Кампус", description: "Розклад і оцінки" },
    { id: "22222222-2222-4222-8222-222222222222", name: "my-kpi", title: "Мій КПІ", description: "Кабінет" },
    { id: "33333333-3333-4333-8333-333333333333", name: "library", title: "Бібліотека", description: "Книги" },
  ],
};

/** One component with the app's providers and a memory router (for props the routes do not pass). */
export function renderWithProviders(element: ReactElement, path = "/uk/") {
  const router = createMemoryRouter([{ path: "*", element }], { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}
