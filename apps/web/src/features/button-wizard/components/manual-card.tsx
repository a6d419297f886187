import { FileText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card.tsx";

/** The integration manual (PDF, built with the app) in a new tab. */
export function ManualCard() {
  const { t } = useTranslation("button-wizard");
  return (
    <Card className="flex items-start gap-4 p-5 sm:p-6">
      <FileText aria-hidden className="mt-1 size-6 shrink-0 text-primary" />
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">{t("manual.title")}</h2>
        <p className="text-sm text-muted-foreground">{t("manual.description")}</p>
        <a
          href="/integration_manual.pdf"
          target="_blank"
          rel="noopener"
          className="mt-1 w-fit font-medium text-primary underline underline-offset-4 hover:no-underline"
        >
          {t("manual.link")}
        </a>
      </div>
    </Card>
  );
}
