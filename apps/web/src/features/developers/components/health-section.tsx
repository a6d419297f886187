import { useTranslation } from "react-i18next";
import { useLanguage } from "@/lib/use-language.ts";
import { useIntegrationHealth } from "../api/developers.ts";
import { DeveloperSection } from "./section.tsx";

/** Protocol names are the same in every language; the ticket exchange is named in the page's own words. */
const protocolNames: Partial<Record<string, string>> = { oidc: "OpenID Connect", cas: "CAS", ldap: "LDAP" };

/** Sign-ins per day and the last failures the integration caused, each with what to fix. */
export function HealthSection({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const health = useIntegrationHealth(applicationId);
  const data = health.data;
  const total = data?.signInsPerDay.reduce((sum, day) => sum + day.signIns, 0) ?? 0;
  const peak = Math.max(1, ...(data?.signInsPerDay.map((day) => day.signIns) ?? [1]));
  const time = new Intl.DateTimeFormat(language === "uk" ? "uk-UA" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  return (
    <DeveloperSection id="health" title={t("health.title")}>
      {data ? (
        <>
          <p className="text-foreground">{t("health.signIns", { count: total })}</p>
          <div className="flex h-16 items-end gap-0.5" role="img" aria-label={t("health.chartLabel", { count: total })}>
            {data.signInsPerDay.map((day) => (
              <div
                key={day.day}
                className="flex-1 rounded-t bg-primary/70"
                style={{ height: `${Math.max(4, (day.signIns / peak) * 100)}%` }}
                title={`${day.day}: ${day.signIns}`}
              />
            ))}
          </div>
          <h3 className="font-medium text-foreground">{t("health.failuresTitle")}</h3>
          {data.failures.length === 0 ? <p className="text-muted-foreground">{t("health.noFailures")}</p> : null}
          <ul className="divide-y divide-border rounded-lg border border-border" aria-label={t("health.failuresTitle")}>
            {data.failures.map((failure) => (
              <li key={failure.id} className="flex flex-col gap-1 p-3" data-testid="integration-failure">
                <span className="text-sm text-muted-foreground">
                  {time.format(new Date(failure.at))} · {protocolNames[failure.protocol] ?? t("health.ticket")}
                </span>
                <span className="font-medium text-foreground">{t(`failures.${failure.reason}.what`)}</span>
                {failure.address ? (
                  <span className="text-sm text-foreground" data-testid="failure-address">
                    {t("health.addressTried")} <code className="break-all">{failure.address}</code>
                  </span>
                ) : null}
                <span className="text-sm text-foreground">{t(`failures.${failure.reason}.fix`)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </DeveloperSection>
  );
}
