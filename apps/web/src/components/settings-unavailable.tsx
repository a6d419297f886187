import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";

/**
 * The deployment's settings could not be read (the page came without them and /api/settings failed):
 * say so where the missing part would be, instead of hiding it or showing a link that leads nowhere.
 */
export function SettingsUnavailable({ what }: { what: "signIn" | "contacts" }) {
  const { t } = useTranslation();
  return (
    <Alert variant="destructive" title={t("common:settingsUnavailable.title")} testId="settings-unavailable">
      {t(`common:settingsUnavailable.${what}`)}
    </Alert>
  );
}
