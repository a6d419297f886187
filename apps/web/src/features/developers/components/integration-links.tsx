import { BookOpen, Link2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "@/components/ui/copy-button.tsx";

/** Where a developer reads next (issue 60): the integration manual and the OpenID Connect issuer's discovery address. */
export function IntegrationLinks() {
  const { t } = useTranslation("developers");
  const issuer = `${window.location.origin}/oidc`;
  const discovery = `${issuer}/.well-known/openid-configuration`;
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-border bg-white p-4 text-sm"
      data-testid="integration-links"
    >
      <a
        href="/integration_manual.pdf"
        className="inline-flex min-h-11 items-center gap-2 font-medium text-primary underline-offset-4 hover:underline"
        data-testid="integration-manual-link"
      >
        <BookOpen className="size-4" aria-hidden />
        {t("links.manual")}
      </a>
      <div className="flex flex-col gap-1">
        <span className="flex items-center gap-2 font-medium text-foreground">
          <Link2 className="size-4" aria-hidden />
          {t("links.discovery")}
        </span>
        <div className="flex flex-wrap items-center gap-2">
          <a
            href={discovery}
            className="break-all text-primary underline-offset-4 hover:underline"
            data-testid="discovery-link"
          >
            {discovery}
          </a>
          <CopyButton text={issuer} size="sm" variant="outline" copiedMessage={t("credentials.copied")}>
            {t("links.copyIssuer")}
          </CopyButton>
        </div>
      </div>
    </div>
  );
}
