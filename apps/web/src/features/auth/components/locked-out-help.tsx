import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizePath } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";

const linkClass = "font-medium text-primary underline";

/**
 * Too many wrong passwords for an account hold it for unknown browsers only: say what still works, so the
 * owner (whose guesser may be a stranger) is not stuck until the lock lifts.
 */
export function LockedOutHelp() {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const settings = useSettings().data;
  return (
    <div className="mt-2 space-y-1" data-testid="locked-out-help">
      <p>{t("auth:login.lockedOut.stillWorks")}</p>
      <ul className="list-disc space-y-1 pl-5">
        {settings?.diiaEnabled ? (
          <li>
            <Link className={linkClass} to={localizePath(language, "/diia")}>
              {t("auth:login.lockedOut.diia")}
            </Link>
          </li>
        ) : null}
        {settings?.bankIdEnabled ? <li>{t("auth:login.lockedOut.bankid")}</li> : null}
        {settings?.googleEnabled ? <li>{t("auth:login.lockedOut.google")}</li> : null}
        <li>
          <Link className={linkClass} to={localizePath(language, "/forgot-password")}>
            {t("auth:login.lockedOut.reset")}
          </Link>
        </li>
        <li>{t("auth:login.lockedOut.knownBrowser")}</li>
      </ul>
    </div>
  );
}
