import { useTranslation } from "react-i18next";
import { useSettings } from "@/lib/settings.ts";

// REAUTH_MAX_AGE_SECONDS' default, for a page that came without the settings (development).
const defaultReauthMaxAgeSeconds = 600;

/**
 * How recent a sign-in a sensitive change needs, in words ("10 minutes", "45 seconds"), from the
 * deployment's REAUTH_MAX_AGE_SECONDS rather than a number written into the text.
 */
export function useReauthWindow(): string {
  const { t } = useTranslation("account");
  const seconds = useSettings().data?.reauthMaxAgeSeconds ?? defaultReauthMaxAgeSeconds;
  return seconds % 60 === 0
    ? t("account:reauthWindow.minutes", { count: seconds / 60 })
    : t("account:reauthWindow.seconds", { count: seconds });
}
