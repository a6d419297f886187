import type { DeveloperApplication } from "@kpi-id/contracts";
import { AppWindow } from "lucide-react";
import { useTranslation } from "react-i18next";
import { RequestedData, useScopeWords } from "@/components/requested-data.tsx";
import { ReviewMark } from "@/components/review-mark.tsx";
import { useLanguage } from "@/lib/use-language.ts";
import { DeveloperSection } from "./section.tsx";

/**
 * What a person sees before allowing the application (issue 60): its name, the university's mark and the data it
 * asks for, drawn with the consent screen's own parts so the preview cannot drift from it. Not interactive.
 */
export function ConsentPreview({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation(["developers", "consent"]);
  const language = useLanguage();
  const scopeWords = useScopeWords();
  const title = language === "en" ? application.titleEn || application.title : application.title;
  const description =
    language === "en" ? application.descriptionEn || application.description : application.description;
  return (
    <DeveloperSection id="preview" title={t("developers:preview.title")}>
      <p className="text-sm text-muted-foreground">{t("developers:preview.description")}</p>
      <figure
        className="flex flex-col gap-4 rounded-xl border border-dashed border-border bg-muted/40 p-4"
        aria-label={t("developers:preview.label")}
        data-testid="consent-preview"
      >
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-primary/10 text-primary">
            {application.iconUrl ? (
              <img src={application.iconUrl} alt="" className="size-10 object-contain" />
            ) : (
              <AppWindow className="size-5" aria-hidden />
            )}
          </span>
          <div className="min-w-0">
            <p className="break-words text-lg font-semibold text-foreground">
              {t("consent:title", { application: title })}
            </p>
            {description ? <p className="break-words text-sm text-muted-foreground">{description}</p> : null}
          </div>
        </div>
        <ReviewMark reviewed={application.lifecycle === "live"} />
        <p className="font-medium text-foreground">{t("consent:requests", { application: title })}</p>
        <RequestedData items={scopeWords(application.scopes)} />
      </figure>
    </DeveloperSection>
  );
}
