import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { ResetPasswordForm } from "@/features/password/components/reset-password-form.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** The token travels in the fragment (`#token=…`): it reaches no server log and no Referer. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/** Where a reset link (or a Diia proof) lands: set a new password. */
export function ResetPasswordRoute() {
  const { t } = useTranslation("password");
  const language = useLanguage();
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => tokenOf(hash));
  useEffect(() => {
    const fromLink = tokenOf(hash);
    if (fromLink === "") return;
    // A newer link opened in the same tab replaces the token; it then leaves the address bar, history
    // and any screenshot of it.
    setToken(fromLink);
    navigate({ pathname, hash: "" }, { replace: true });
  }, [hash, pathname, navigate]);
  return (
    <ContentPage title={t("password:reset.title")} width="narrow">
      <ResetPasswordForm
        key={token}
        token={token}
        forgotHref={localizePath(language, "/forgot-password")}
        signInHref={localizePath(language, "/")}
      />
    </ContentPage>
  );
}
