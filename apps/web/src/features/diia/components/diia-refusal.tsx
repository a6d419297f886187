import type { DiiaFailureReason } from "@kpi-id/contracts";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * Why Diia's answer did not sign the person in, and who can fix it: it stays until the next attempt, since
 * a new QR code will not help a person the university does not know (issue 37).
 */
export function DiiaRefusal({ reason }: { reason: DiiaFailureReason }) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  return (
    <Alert
      variant="destructive"
      className="w-full max-w-[388px]"
      testId="diia-refusal"
      title={t(`auth:diia.refused.${reason}.title`)}
    >
      <Trans
        t={t}
        i18nKey={`auth:diia.refused.${reason}.body`}
        components={{ help: <Link className="underline" to={localizePath(language, "/faq")} /> }}
      />
    </Alert>
  );
}
