import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { ProviderReturn } from "@/components/provider-return.tsx";
import { bankIdCallbackUrl, bankIdErrorUrl } from "@/features/bankid/api/bankid-auth.ts";
import { browser } from "@/lib/browser.ts";
import { toLanguage } from "@/lib/languages.ts";

/**
 * BankID returns here (/{lang}/bankid-auth). The page only hands the answer to the server (a page load of
 * /bankid/auth), which checks code and state, reads and checks the bank's envelope, sets the session (or
 * starts the password reset) and redirects onwards; BankID's own errors (a cancelled consent) go to the
 * server too, which knows from the state whether the login page or "Forgot password" shows them.
 */
export function BankIdAuthRoute() {
  const { t } = useTranslation("auth");
  // The URL's language, not the UI's: on the first render i18n may not have switched to it yet.
  const language = toLanguage(useParams().lang);
  const [searchParams] = useSearchParams();
  const started = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; a code may be used only once.
    if (started.current) return;
    started.current = true;
    browser.replace(bankIdCallbackUrl(searchParams, language) ?? bankIdErrorUrl(language));
  }, [searchParams, language]);
  return <ProviderReturn status={t("auth:bankid.loading")} />;
}
