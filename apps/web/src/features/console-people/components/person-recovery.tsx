import type { PersonDetail } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Section, useCan, useConsoleAction } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

function useRecoveryAction(person: PersonDetail, path: string, done: string) {
  const describeError = useErrorMessage();
  const action = useConsoleAction<void>(() => `/api/admin/people/${person.id}/${path}`);
  return {
    pending: action.isPending,
    run: () =>
      action.mutate(undefined, {
        onSuccess: () => notify("success", done),
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      }),
  };
}

/** Second factors and passkeys (reset) and the recovery e-mail: helpdesk's tools for a locked-out person. */
export function RecoverySection({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const allowed = useCan("people.recovery");
  const reset = useRecoveryAction(person, "second-factor/reset", t("admin:recovery.resetDone"));
  const mail = useRecoveryAction(person, "recovery-mail", t("admin:recovery.mailDone", { email: person.email }));
  const { authenticator, passkeys } = person.secondFactor;
  return (
    <Section title={t("admin:recovery.title")} testId="person-recovery">
      <p className="text-sm" data-testid="second-factor-state">
        {authenticator ? t("admin:recovery.authenticatorOn") : t("admin:recovery.authenticatorOff")}{" "}
        {t("admin:recovery.passkeys", { count: passkeys })}
      </p>
      {person.emailVerified ? null : (
        <p className="text-sm text-muted-foreground" data-testid="no-verified-address">
          {t("admin:recovery.noAddress")}
        </p>
      )}
      {allowed ? (
        <div className="flex flex-wrap gap-2">
          <ConfirmButton
            question={t("admin:recovery.resetQuestion", { name: person.fullName })}
            consequence={t("admin:recovery.resetConsequence")}
            confirmLabel={t("admin:recovery.reset")}
            onConfirm={() => reset.run()}
            loading={reset.pending}
          >
            {t("admin:recovery.reset")}
          </ConfirmButton>
          <ConfirmButton
            disabled={!person.emailVerified}
            question={t("admin:recovery.mailQuestion", { name: person.fullName })}
            consequence={t("admin:recovery.mailConsequence", { email: person.email })}
            confirmLabel={t("admin:recovery.mail")}
            onConfirm={() => mail.run()}
            loading={mail.pending}
          >
            {t("admin:recovery.mail")}
          </ConfirmButton>
        </div>
      ) : null}
    </Section>
  );
}
