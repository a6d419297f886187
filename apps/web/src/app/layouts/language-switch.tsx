import { Languages } from "lucide-react";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { browser } from "@/lib/browser.ts";
import type { Language } from "@/lib/languages.ts";
import { swapLanguage } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Swaps the language segment and loads the page anew, so every text and cached answer follows. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const language = useLanguage();
  const location = useLocation();
  const target: Language = language === "uk" ? "en" : "uk";
  const href = swapLanguage(location.pathname, location.search, target);
  const reload = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    browser.assign(href);
  };
  return (
    <a
      href={href}
      hrefLang={target}
      lang={target}
      onClick={reload}
      className="inline-flex items-center gap-2 rounded-md px-2 py-2 text-sm font-medium text-primary hover:bg-primary/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="language-switch"
    >
      <Languages className="size-4" aria-hidden />
      {t("common:header.switchLanguage")}
    </a>
  );
}
