import { userDataKeys } from "@kpi-id/contracts";
import { IdCard } from "lucide-react";
import { useTranslation } from "react-i18next";
import { AccountSection } from "./account-section.tsx";

/** The fields of "My data" the person can read here; how they signed in is shown with the sessions. */
const profileKeys = userDataKeys.filter((key) => key !== "AUTH_METHOD");

/** "My data", read-only, and who corrects it: the campus records, not the person. */
export function ProfileSection({ data }: { data: Record<string, string> }) {
  const { t } = useTranslation(["account", "apps"]);
  return (
    <AccountSection
      id="profile"
      icon={IdCard}
      title={t("account:profile.title")}
      description={t("account:profile.description")}
    >
      <dl className="divide-y divide-border text-sm">
        {profileKeys.map((key) => (
          <div key={key} className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:gap-3">
            <dt className="text-muted-foreground sm:w-56 sm:shrink-0">{t(`apps:myData.fields.${key}`)}</dt>
            <dd className="font-medium break-words text-foreground">
              {data[key]?.trim() || t("apps:myData.notOnFile")}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted-foreground" data-testid="profile-corrections">
        {t("account:profile.corrections")}
      </p>
    </AccountSection>
  );
}
