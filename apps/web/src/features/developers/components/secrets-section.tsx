import type { DeveloperApplication } from "@kpi-id/contracts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useLanguage } from "@/lib/use-language.ts";
import { endPreviousSecret, rotateSecret, useDeveloperChange } from "../api/developers.ts";
import { ClientTypeLine } from "./client-type-field.tsx";
import { Credential } from "./secret-once.tsx";
import { DeveloperSection } from "./section.tsx";

/** How long the replaced secret may keep working, in hours (the server allows 0 to 168). */
const overlaps = [0, 1, 24, 72, 168] as const;

/**
 * The application's id and secrets (issue 60): when each came, was last used and, for the one replaced, ends.
 * Replacing keeps the old one working for the overlap the owner picks, so servers move over without failed sign-ins.
 */
export function SecretsSection({
  application,
  onSecret,
}: {
  application: DeveloperApplication;
  onSecret: (secret: string) => void;
}) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const id = useId();
  const [overlapHours, setOverlapHours] = useState<number>(24);
  const rotate = useDeveloperChange(
    () => rotateSecret(application.id, overlapHours),
    (answer) => onSecret(answer.secret),
  );
  const endPrevious = useDeveloperChange(() => endPreviousSecret(application.id));
  const time = new Intl.DateTimeFormat(language === "uk" ? "uk-UA" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const when = (value: string | null, never: string) => (value ? time.format(new Date(value)) : never);
  const isPublic = application.clientType !== "web";
  return (
    <DeveloperSection id="credentials" title={t("credentials.title")}>
      <ClientTypeLine type={application.clientType} />
      <Credential label={t("credentials.appId")} value={application.id} testId="application-id" />
      {isPublic ? (
        <p className="text-sm text-muted-foreground" data-testid="no-secret">
          {t("credentials.publicClient")}
        </p>
      ) : (
        <>
          <ul className="divide-y divide-border rounded-lg border border-border" aria-label={t("credentials.secrets")}>
            {application.secrets.map((secret) => (
              <li
                key={secret.which}
                className="flex flex-col gap-0.5 p-3 text-sm"
                data-testid={`secret-${secret.which}`}
              >
                <span className="font-medium text-foreground">{t(`credentials.${secret.which}`)}</span>
                {secret.createdAt ? (
                  <span className="text-muted-foreground">
                    {t("credentials.created", { when: when(secret.createdAt, "") })}
                  </span>
                ) : null}
                <span className="text-foreground" data-testid="secret-last-used">
                  {t("credentials.lastUsed", { when: when(secret.lastUsedAt, t("credentials.never")) })}
                </span>
                {secret.endsAt ? (
                  <span className="font-medium text-amber-900" data-testid="secret-ends">
                    {t("credentials.ends", { when: when(secret.endsAt, "") })}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted-foreground">{t("credentials.secretHidden")}</p>
          <div className="flex flex-col gap-1.5 sm:max-w-sm">
            <Label htmlFor={`${id}-overlap`}>{t("credentials.overlap")}</Label>
            <select
              id={`${id}-overlap`}
              className="min-h-11 rounded-md border border-input bg-white px-3 text-base text-foreground"
              value={overlapHours}
              onChange={(event) => setOverlapHours(Number(event.target.value))}
              data-testid="secret-overlap"
            >
              {overlaps.map((hours) => (
                <option key={hours} value={hours}>
                  {t(`credentials.overlapHours.${hours}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-wrap gap-2">
            <ConfirmButton
              question={t("credentials.rotateQuestion")}
              consequence={
                overlapHours > 0
                  ? t("credentials.rotateOverlap", { overlap: t(`credentials.overlapHours.${overlapHours}`) })
                  : t("credentials.rotateConsequence")
              }
              confirmLabel={t("credentials.rotateConfirm")}
              onConfirm={() => rotate.mutate(undefined)}
              loading={rotate.isPending}
              data-testid="rotate-secret"
            >
              {t("credentials.rotate")}
            </ConfirmButton>
            {application.secrets.some((secret) => secret.which === "previous") ? (
              <ConfirmButton
                question={t("credentials.endPreviousQuestion")}
                consequence={t("credentials.endPreviousConsequence")}
                confirmLabel={t("credentials.endPrevious")}
                onConfirm={() => endPrevious.mutate(undefined)}
                loading={endPrevious.isPending}
                data-testid="end-previous-secret"
              >
                {t("credentials.endPrevious")}
              </ConfirmButton>
            ) : null}
          </div>
        </>
      )}
    </DeveloperSection>
  );
}
