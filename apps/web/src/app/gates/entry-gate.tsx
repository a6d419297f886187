import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useCurrentUser } from "@/lib/current-user.ts";
import { localizePath, returnPathFrom } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Sign-in pages: a person already signed in goes straight to the apps list, query string and all. */
export function EntryGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const language = useLanguage();
  const { search } = useLocation();
  if (user.isPending) return <PageSpinner label={t("common:loading")} />;
  // The application asked the person to prove who they are again (prompt=login, max_age):
  // the sign-in screen shows even to someone signed in; signing in then resumes the request.
  if (new URLSearchParams(search).has("reauth")) return children;
  // Signed in already, on the way to a page of this app: straight there (the sign-in it was waiting for is done).
  const returnTo = returnPathFrom(search);
  if (user.data && returnTo) return <Navigate to={returnTo} replace />;
  if (user.data) return <Navigate to={`${localizePath(language, "/apps")}${search}`} replace />;
  return children;
}
