import { KeyRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";

/**
 * The application's credentials right after registering or rotating: the secret is shown this once. A public client
 * (single-page, mobile, command-line) has none: only its id, which is no secret.
 */
export function SecretOnce({ applicationId, secret }: { applicationId: string; secret: string }) {
  const { t } = useTranslation("developers");
  return (
    <Alert title={t(secret ? "secret.title" : "secret.publicTitle")} testId="secret-once">
      <div className="flex flex-col gap-3">
        <p>{t(secret ? "secret.description" : "secret.publicDescription")}</p>
        <Credential label={t("credentials.appId")} value={applicationId} testId="created-app-id" />
        {secret ? <Credential label={t("credentials.secret")} value={secret} testId="created-secret" /> : null}
      </div>
    </Alert>
  );
}

export function Credential({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation("developers");
  return (
    <div className="flex flex-col gap-1">
      <span className="flex items-center gap-1 text-sm font-medium text-foreground">
        <KeyRound className="size-4" aria-hidden />
        {label}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded bg-muted px-2 py-1 text-sm break-all text-foreground" data-testid={testId}>
          {value}
        </code>
        <CopyButton text={value} size="sm" variant="outline" copiedMessage={t("credentials.copied")}>
          {t("credentials.copy")}
        </CopyButton>
      </div>
    </div>
  );
}
