import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ProviderReturn } from "@/components/provider-return.tsx";
import { googleCallbackUrl, googleErrorUrl } from "@/features/google/api/google-auth.ts";
import { browser } from "@/lib/browser.ts";
import { useDocumentTitle } from "@/lib/document-title.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * Google returns here. The page only hands the answer to the server (a page load of /google/auth),
 * which checks code and state, sets the session and redirects to where the sign-in continues.
 */
export function GoogleAuthRoute() {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const [searchParams] = useSearchParams();
  const started = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; a code may be used only once.
    if (started.current) return;
    started.current = true;
    try {
      browser.replace(googleCallbackUrl(searchParams));
    } catch {
      browser.replace(googleErrorUrl(language, searchParams));
    }
  }, [searchParams, language]);
  useDocumentTitle();
  return <ProviderReturn status={t("auth:google.loading")} />;
}
