import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { appIdFromState } from "@/features/google/api/decode-state.ts";
import { completeGoogleAuth } from "@/features/google/api/google-auth.ts";
import { browser } from "@/lib/browser.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Google returns here; the server checks code and state, then the browser moves on with a fresh page load. */
export function GoogleAuthRoute() {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const [searchParams] = useSearchParams();
  const started = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; a code may be used only once.
    if (started.current) return;
    started.current = true;
    const code = searchParams.get("code");
    const state = searchParams.get("state");
    completeGoogleAuth(code, state).then(
      () => {
        const appId = appIdFromState(state);
        const query = appId ? `?${new URLSearchParams({ appId })}` : "";
        browser.replace(`${localizePath(language, "/apps")}${query}`);
      },
      () => browser.replace(`${localizePath(language, "/")}?google_auth_error=true`),
    );
  }, [searchParams, language]);
  return (
    <main className="flex min-h-dvh items-center justify-center">
      <PageSpinner label={t("auth:google.loading")} />
    </main>
  );
}
