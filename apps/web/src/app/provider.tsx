import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense } from "react";
import { I18nextProvider } from "react-i18next";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { i18n } from "@/lib/i18n.ts";
import { ErrorBoundary } from "./error-boundary.tsx";
import { Toaster } from "./toaster.tsx";

interface AppProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProvider({ queryClient, children }: AppProviderProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {/* Translations load before the first paint; the label cannot be translated yet. */}
        <Suspense fallback={<PageSpinner label="…" />}>
          <ErrorBoundary fallback={null}>{children}</ErrorBoundary>
          <Toaster />
        </Suspense>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
