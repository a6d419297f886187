import { isErrorCode, ticketConsentParam } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { Button } from "@/components/ui/button.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { ConsentScreen } from "./consent-screen.tsx";

/** Opened directly (a bookmark, a link from history): there is no request to ask about. */
function NoRequest() {
  const { t } = useTranslation("consent");
  const language = useLanguage();
  return (
    <ContentPage title={t("consent:noRequest.title")} width="narrow">
      <p className="text-muted-foreground" data-testid="consent-no-request">
        {t("consent:noRequest.description")}
      </p>
      <Button asChild className="self-start">
        <Link to={localizePath(language, "/")}>{t("consent:noRequest.home")}</Link>
      </Button>
    </ContentPage>
  );
}

/**
 * A service provider's SAML message KPI ID refused (the server sends the browser here with the code):
 * what happened, in the person's language, and what they can do. `role="alert"` so a screen reader says it.
 */
function SamlRefused({ code }: { code: string }) {
  const { t } = useTranslation(["consent", "errors"]);
  const language = useLanguage();
  const reason = isErrorCode(code) ? t(`errors:${code}`) : t("consent:samlRefused.unknown");
  return (
    <ContentPage title={t("consent:samlRefused.title")} width="narrow">
      <p role="alert" data-testid="saml-refused">
        {reason}
      </p>
      <p className="text-muted-foreground">{t("consent:samlRefused.whoToAsk")}</p>
      <Button asChild className="self-start">
        <Link to={localizePath(language, "/")}>{t("consent:noRequest.home")}</Link>
      </Button>
    </ContentPage>
  );
}

/**
 * /{lang}/consent?uid=… (an OpenID Connect sign-in), ?saml=… (a SAML service provider's
 * request) or ?ticket=… (a community application's ticket link, issue 56): where the server sends a sign-in
 * that needs the person's consent.
 */
export function ConsentPage() {
  const [searchParams] = useSearchParams();
  const saml = searchParams.get("saml");
  const uid = searchParams.get("uid");
  const samlError = searchParams.get("samlError");
  const ticket = searchParams.get(ticketConsentParam);
  if (samlError) return <SamlRefused code={samlError} />;
  if (ticket) return <ConsentScreen request={{ kind: "ticket", id: ticket }} />;
  if (saml) return <ConsentScreen request={{ kind: "saml", id: saml }} />;
  if (uid) return <ConsentScreen request={{ kind: "oidc", uid }} />;
  return <NoRequest />;
}
