import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { buttonVariants } from "@/components/ui/button.tsx";

export function NotFoundRoute() {
  const { t } = useTranslation("pages");
  return (
    <ContentPage title={t("pages:notFound.title")} width="narrow">
      <p className="text-muted-foreground">{t("pages:notFound.description")}</p>
      <Link to="/" className={buttonVariants({ className: "self-start" })}>
        {t("pages:notFound.return")}
      </Link>
    </ContentPage>
  );
}
