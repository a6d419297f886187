import type { QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RouterProvider } from "react-router";
import { AppProvider } from "./provider.tsx";
import { createAppRouter } from "./router.tsx";

export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
