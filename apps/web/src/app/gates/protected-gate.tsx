import type { CurrentUser } from "@kpi-id/contracts";
import { createContext, type ReactNode, useContext } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useUser } from "@/lib/current-user.ts";
import { signInReturningTo } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

const UserContext = createContext<CurrentUser | undefined>(undefined);

/** The signed-in person, for pages behind the protected gate. */
export function useCurrentUser(): CurrentUser {
  const user = useContext(UserContext);
  if (!user) throw new Error("useCurrentUser is used outside the protected gate");
  return user;
}

/**
 * Nobody signed in: to the sign-in page, which comes back here afterwards (issue 60: `/{lang}/developers` opened
 * signed out lands on the developers' page, not the apps list). Otherwise the person is handed to the page.
 */
export function ProtectedGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  const language = useLanguage();
  const { pathname } = useLocation();
  if (user.isPending) return <PageSpinner label={t("common:loading")} />;
  if (!user.data) return <Navigate to={signInReturningTo(language, pathname)} replace />;
  return <UserContext.Provider value={user.data}>{children}</UserContext.Provider>;
}
