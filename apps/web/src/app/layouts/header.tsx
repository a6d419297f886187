import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Logo } from "@/components/ui/logo.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";
import { LanguageSwitch } from "./language-switch.tsx";

export function Header() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <header className="border-b border-border bg-white/80">
      <div className={cn(pageContainer, "flex items-center justify-between gap-3 py-3")}>
        <Link
          to={localizePath(language, "/")}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          {/* The name is the visible text and then "— home", so a voice user who says what they see
              ("KPI ID") names the link (WCAG 2.5.3, axe's label-content-name-mismatch). */}
          <Logo caption={t("common:app.university")} />
          <span className="sr-only"> {t("common:header.home")}</span>
        </Link>
        <LanguageSwitch />
      </div>
    </header>
  );
}
