import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pageContainer } from "@/lib/layout.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";

const linkClass =
  "rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

export function PublicFooter() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <footer className="border-t border-border">
      <div
        className={cn(
          pageContainer,
          "flex flex-col gap-2 py-5 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between",
        )}
      >
        <p>{t("common:footer.public")}</p>
        <Link to={localizePath(language, "/faq")} className={linkClass}>
          {t("common:footer.faq")}
        </Link>
      </div>
    </footer>
  );
}

export function PrivateFooter() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <footer className="border-t border-border">
      <div
        className={cn(
          pageContainer,
          "flex flex-col gap-2 py-5 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between",
        )}
      >
        <p>{t("common:footer.rights", { year: new Date().getFullYear() })}</p>
        <nav aria-label={t("common:footer.legal")} className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to={localizePath(language, "/privacy-policy")} className={linkClass}>
            {t("common:footer.privacy")}
          </Link>
          <Link to={localizePath(language, "/terms-of-use")} className={linkClass}>
            {t("common:footer.terms")}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
