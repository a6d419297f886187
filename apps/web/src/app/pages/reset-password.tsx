import { useTranslation } from "react-i18next";
import { ContentPage } from "@/components/content-page.tsx";
import { ResetPasswordForm } from "@/features/password/components/reset-password-form.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useFragmentToken } from "@/lib/use-fragment-token.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Where a reset link (or a Diia proof) lands: set a new password. */
export function ResetPasswordRoute() {
  const { t } = useTranslation("password");
  const language = useLanguage();
  const token = useFragmentToken();
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
