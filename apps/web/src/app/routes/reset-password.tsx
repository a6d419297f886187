import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { ResetPasswordForm } from "@/features/password/components/reset-password-form.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { ContentPage } from "../layouts/page.tsx";

/** The token travels in the fragment (`#token=…`): it reaches no server log and no Referer. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/** Where a reset link (or a Diia proof) lands: set a new password. */
export function ResetPasswordRoute() {
  const { t } = useTranslation("password");
  const language = useLanguage();
  const { hash } = useLocation();
  const [token] = useState(() => tokenOf(hash));
  useEffect(() => {
    // Out of the address bar, history and any screenshot of it once read.
    if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, []);
  return (
    <ContentPage title={t("password:reset.title")} width="narrow">
      <ResetPasswordForm
        token={token}
        forgotHref={localizePath(language, "/forgot-password")}
        signInHref={localizePath(language, "/")}
      />
    </ContentPage>
  );
}
