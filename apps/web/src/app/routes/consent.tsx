import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { ConsentScreen } from "@/features/consent/components/consent-screen.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { ContentPage } from "../layouts/page.tsx";

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
 * /{lang}/consent?uid=… (an OpenID Connect sign-in) or ?saml=… (a SAML service provider's
 * request): where the server sends a sign-in that needs the person's consent.
 */
export function ConsentRoute() {
  const [searchParams] = useSearchParams();
  const saml = searchParams.get("saml");
  const uid = searchParams.get("uid");
  if (saml) return <ConsentScreen request={{ kind: "saml", id: saml }} />;
  if (uid) return <ConsentScreen request={{ kind: "oidc", uid }} />;
  return <NoRequest />;
}
