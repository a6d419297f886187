import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Logo } from "@/components/ui/logo.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { LanguageSwitch } from "./language-switch.tsx";

export function Header() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <header className="border-b border-border bg-white/80">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link
          to={localizePath(language, "/")}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          aria-label={t("common:header.home")}
        >
          <Logo caption={t("common:app.university")} />
        </Link>
        <LanguageSwitch />
      </div>
    </header>
  );
}
