import type { ApplicationPublisher } from "@kpi-id/contracts";
import { ExternalLink } from "lucide-react";
import { useTranslation } from "react-i18next";

function PageLink({ href, children }: { href: string; children: string }) {
  return (
    <a className="inline-flex items-center gap-1 font-medium text-primary underline" href={href} rel="noreferrer">
      {children}
      <ExternalLink className="size-3.5" aria-hidden />
    </a>
  );
}

/** Who stands behind a community application: its pages and its owners' contacts, for the person to judge it. */
export function Publisher({ publisher }: { publisher: ApplicationPublisher }) {
  const { t } = useTranslation("consent");
  const { homePageUrl, privacyPolicyUrl, owners } = publisher;
  return (
    <section className="space-y-2 text-sm" aria-label={t("publisher.title")} data-testid="consent-publisher">
      <p className="font-medium text-foreground">{t("publisher.title")}</p>
      {owners.length ? (
        <ul className="space-y-1 text-muted-foreground">
          {owners.map((owner) => (
            <li key={`${owner.name} ${owner.email}`} className="break-words">
              {owner.name}
              {owner.email ? (
                <>
                  {" · "}
                  <a className="text-primary underline" href={`mailto:${owner.email}`}>
                    {owner.email}
                  </a>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {homePageUrl || privacyPolicyUrl ? (
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {homePageUrl ? <PageLink href={homePageUrl}>{t("publisher.homePage")}</PageLink> : null}
          {privacyPolicyUrl ? <PageLink href={privacyPolicyUrl}>{t("publisher.privacyPolicy")}</PageLink> : null}
        </p>
      ) : (
        <p className="text-muted-foreground">{t("publisher.noPolicy")}</p>
      )}
    </section>
  );
}
