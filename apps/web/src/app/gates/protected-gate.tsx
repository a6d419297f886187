import type { CurrentUser } from "@kpi-id/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useCurrentUser } from "@/lib/current-user.ts";
import { signInReturningTo } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * Nobody signed in: to the sign-in page, which comes back here afterwards (issue 60: `/{lang}/developers` opened
 * signed out lands on the developers' page, not the apps list). Otherwise the page is shown, and a page that
 * needs the person gets them from the gate (`{(user) => …}`), never null.
 */
export function ProtectedGate({ children }: { children: ReactNode | ((user: CurrentUser) => ReactNode) }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const language = useLanguage();
  const { pathname } = useLocation();
  if (user.isPending) return <PageSpinner label={t("common:loading")} />;
  if (!user.data) return <Navigate to={signInReturningTo(language, pathname)} replace />;
  return typeof children === "function" ? children(user.data) : children;
}
