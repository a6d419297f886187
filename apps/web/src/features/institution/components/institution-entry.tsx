import { Landmark } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button.tsx";
import { localizedHref } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";

/** The login page's "Sign in with your institution": to the discovery screen, the application's link kept. */
export function InstitutionEntry({ search, disabled }: { search: string; disabled: boolean }) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  return (
    <Link
      to={localizedHref(language, "/institution", search, ["appId", "state", "redirectUri"])}
      aria-disabled={disabled || undefined}
      onClick={(event) => disabled && event.preventDefault()}
      className={cn(buttonVariants({ variant: "outline" }), "h-11 w-full gap-2")}
      data-testid="institution-login"
    >
      <Landmark className="size-5" aria-hidden />
      {t("auth:institution.entry")}
    </Link>
  );
}
