import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useUser } from "@/features/auth/api/get-user.ts";
import { ResumeInteraction, useRememberInteraction } from "@/features/consent/components/resume-interaction.tsx";
import { readPendingInteraction } from "@/features/consent/pending-interaction.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Sign-in pages: a person already signed in goes straight to the apps list, query string and all. */
export function EntryGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  const language = useLanguage();
  const { search } = useLocation();
  useRememberInteraction(search);
  if (user.isPending) return <PageSpinner label={t("common:loading")} />;
  // The application asked the person to prove who they are again (prompt=login, max_age):
  // the sign-in screen shows even to someone signed in; signing in then resumes the request.
  if (new URLSearchParams(search).has("reauth")) return children;
  // An application's OpenID Connect sign-in brought the person here (?oidc=): go back to it.
  const pending = user.data ? readPendingInteraction(search) : undefined;
  if (pending) return <ResumeInteraction uid={pending} />;
  if (user.data) return <Navigate to={`${localizePath(language, "/apps")}${search}`} replace />;
  return children;
}
