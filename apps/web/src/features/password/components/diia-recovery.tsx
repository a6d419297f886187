import { useTranslation } from "react-i18next";
import { DiiaLogin } from "@/features/diia/index.ts";
import { resetTokenFromDiia } from "../api/password-api.ts";

/**
 * Forgot password with Diia: the usual QR (or deep link on a phone); the finished scan's grant becomes a
 * reset token, handed to `onProved` instead of signing the browser in.
 */
export function DiiaRecovery({ onProved }: { onProved: (token: string) => void }) {
  const { t } = useTranslation("password");
  // The Diia screen's own words say how to scan; the choice that led here said what the scan is for.
  return (
    <DiiaLogin
      onSignedIn={onProved}
      exchange={resetTokenFromDiia}
      exchangingLabel={t("password:forgot.diiaStarting")}
    />
  );
}
