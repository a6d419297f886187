import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";

interface RefusalAlertProps {
  /** `{prefix}.title` says what happened; `{prefix}.body` what to do, with `<help>` around the help link. */
  prefix: string;
  testId: string;
  className?: string;
}

/**
 * Why a sign-in (Diia, Google) was refused and who can fix it (issue 37). It stays until the next
 * attempt: a person the university does not know gains nothing from a toast that says "try again".
 */
export function RefusalAlert({ prefix, testId, className }: RefusalAlertProps) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  return (
    <Alert variant="destructive" className={cn("w-full", className)} testId={testId} title={t(`${prefix}.title`)}>
      <Trans
        t={t}
        i18nKey={`${prefix}.body`}
        components={{ help: <Link className="underline" to={localizePath(language, "/faq")} /> }}
      />
    </Alert>
  );
}
