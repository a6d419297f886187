import type { AccountActivity } from "@kpi-id/contracts";
import { History } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { deviceName, formatInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useAccountActivity } from "../api/account-queries.ts";
import { AccountList, AccountSection, Badge } from "./account-section.tsx";

/** A checked password or Google answer is followed by its session's start: one line says it, failures stay. */
const worthShowing = (event: AccountActivity) => !(event.type === "sign_in" && event.result === "success");

/** The person's own sign-ins and account changes of the last 30 days, newest first. */
export function ActivitySection() {
  const { t } = useTranslation(["account", "apps"]);
  const language = useLanguage();
  const activity = useAccountActivity();
  return (
    <AccountSection
      id="activity"
      icon={History}
      title={t("account:activity.title")}
      description={t("account:activity.description")}
    >
      {activity.data ? (
        <AccountList label={t("account:activity.title")}>
          {activity.data
            .filter(worthShowing)
            .slice(0, 50)
            .map((event) => (
              <li
                key={`${event.at}-${event.type}-${event.result}`}
                className="space-y-1 p-3 text-sm"
                data-testid="activity"
              >
                <p className="flex flex-wrap items-center gap-2 font-medium text-foreground">
                  {t(`account:activity.types.${event.type}`, { defaultValue: t("account:activity.types.other") })}
                  {event.method ? (
                    <span className="font-normal text-muted-foreground">
                      {t(`apps:myData.authMethods.${event.method}`, { defaultValue: event.method })}
                    </span>
                  ) : null}
                  {event.result === "failure" ? <Badge tone="bad">{t("account:activity.failed")}</Badge> : null}
                </p>
                <p className="text-muted-foreground">
                  {[
                    formatInstant(event.at, language),
                    event.application,
                    deviceName(event.browser, event.system, ""),
                    event.address,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </li>
            ))}
        </AccountList>
      ) : (
        <Skeleton className="h-20 w-full" />
      )}
    </AccountSection>
  );
}
