import type { PersonDetail } from "@kpi-id/contracts";
import { Trans, useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { AccessPoint, WifiRecentUses } from "@/components/wifi-uses.tsx";
import { ReadFailed, Section, SectionFailure, useCan, useConsoleAction } from "@/features/console-shell/index.ts";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { formatInstant } from "@/lib/format.ts";
import { notify } from "@/lib/notify.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { usePersonWifi, useWifiStats } from "../api/wifi-api.ts";

const outranked = (error: unknown) => error instanceof ApiError && error.code === "admin.person_outranks_operator";

/** A person's Wi-Fi devices (no secrets) with their recent uses (the account page's pieces), revoking one, and turning their Wi-Fi off or on (helpdesk and admin). */
export function PersonWifiSection({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const describeError = useErrorMessage();
  const allowed = useCan("people.recovery");
  const wifi = usePersonWifi(person.id, { asked: true });
  const revoke = useConsoleAction<string>(
    (passwordId) => `/api/admin/people/${person.id}/wifi/passwords/${passwordId}/revoke`,
  );
  const toggle = useConsoleAction<"on" | "off">((state) => `/api/admin/people/${person.id}/wifi/${state}`);
  const failed = (error: unknown) => notify("error", describeError(error, "admin:failed").message);
  // The person screen waits for this answer (answers-first.tsx); one later than that wait gets the frame with a
  // placeholder of the usual state line and button, and a failed one a sentence, so what is below stays put.
  // Refused after an answer came (the person made an admin since): their devices are no longer this operator's to see.
  if (!wifi.data || outranked(wifi.error)) {
    return (
      <Section title={t("admin:wifi.title")} testId="person-wifi" busy={wifi.isPending}>
        {wifi.isPending ? (
          <div className="flex flex-col gap-3" data-testid="person-wifi-loading">
            <Skeleton className="h-5 w-3/4" />
            {allowed ? <Skeleton className="h-9 w-32" /> : null}
          </div>
        ) : outranked(wifi.error) ? (
          // A helpdesk operator on an admin's page: the server shows an admin's devices to admins only, and says
          // so on every read, so the section says why it is empty rather than ask for another try.
          <SectionFailure testId="person-wifi-failed">{t("admin:wifi.outranked")}</SectionFailure>
        ) : (
          <ReadFailed what={t("admin:wifi.loadFailed")} error={wifi.error} testId="person-wifi-failed" />
        )}
      </Section>
    );
  }
  const { passwords, wifiOff } = wifi.data;
  const unnamed = t("admin:wifi.unknownAccessPoint");
  return (
    <Section title={t("admin:wifi.title")} testId="person-wifi">
      <p className="text-sm" data-testid="person-wifi-state">
        {wifiOff ? t("admin:wifi.off") : t("admin:wifi.on")} {t("admin:wifi.count", { count: passwords.length })}
      </p>
      {passwords.length > 0 ? (
        <ul className="flex flex-col gap-2 text-sm">
          {passwords.map((password) => (
            <li
              key={password.id}
              className="flex flex-wrap items-start justify-between gap-2"
              data-testid="person-wifi-password"
            >
              <div className="min-w-0 flex-1 space-y-1">
                <p>
                  <span className="font-medium">{password.name}</span> ·{" "}
                  <span className="break-all font-mono text-xs">{password.identity}</span> ·{" "}
                  {password.uses[0] ? (
                    <Trans
                      t={t}
                      i18nKey="admin:wifi.lastUsed"
                      values={{ when: formatInstant(password.uses[0].usedAt, language) }}
                      components={{ where: <AccessPoint use={password.uses[0]} unnamed={unnamed} /> }}
                    />
                  ) : (
                    t("admin:wifi.neverUsed")
                  )}
                </p>
                {password.uses.length > 1 ? (
                  <WifiRecentUses
                    uses={password.uses}
                    words={{
                      show: t("admin:wifi.uses.show", { count: password.uses.length }),
                      label: t("admin:wifi.uses.label"),
                      unnamed,
                    }}
                  />
                ) : null}
              </div>
              {allowed ? (
                <ConfirmButton
                  question={t("admin:wifi.revokeQuestion", { name: password.name })}
                  consequence={t("admin:wifi.revokeConsequence")}
                  confirmLabel={t("admin:wifi.revoke")}
                  onConfirm={() =>
                    revoke.mutate(password.id, {
                      onSuccess: () => notify("success", t("admin:wifi.revoked")),
                      onError: failed,
                    })
                  }
                >
                  {t("admin:wifi.revoke")}
                </ConfirmButton>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {allowed ? (
        <ConfirmButton
          className="self-start"
          question={
            wifiOff
              ? t("admin:wifi.onQuestion", { name: person.fullName })
              : t("admin:wifi.offQuestion", { name: person.fullName })
          }
          consequence={wifiOff ? t("admin:wifi.onConsequence") : t("admin:wifi.offConsequence")}
          confirmLabel={wifiOff ? t("admin:wifi.turnOn") : t("admin:wifi.turnOff")}
          onConfirm={() => toggle.mutate(wifiOff ? "on" : "off", { onError: failed })}
          loading={toggle.isPending}
        >
          {wifiOff ? t("admin:wifi.turnOn") : t("admin:wifi.turnOff")}
        </ConfirmButton>
      ) : null}
    </Section>
  );
}

/** Service screen: Wi-Fi sign-ins per day and refusals by reason, the last 14 days. */
export function WifiFiguresSection() {
  const { t } = useTranslation("admin");
  const stats = useWifiStats();
  if (!stats.data) return null;
  return (
    <Section title={t("admin:wifi.figuresTitle")} testId="service-wifi">
      {stats.data.days.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("admin:wifi.noSignIns")}</p>
      ) : (
        <table className="text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="pr-4 font-normal">{t("admin:wifi.day")}</th>
              <th className="pr-4 font-normal">{t("admin:wifi.accepted")}</th>
              <th className="font-normal">{t("admin:wifi.refused")}</th>
            </tr>
          </thead>
          <tbody>
            {stats.data.days.map((day) => (
              <tr key={day.day}>
                <td className="pr-4 font-mono">{day.day}</td>
                <td className="pr-4">{day.accepted}</td>
                <td>{day.refused}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {stats.data.failures.length > 0 ? (
        <ul className="text-sm" data-testid="service-wifi-failures">
          {stats.data.failures.map((failure) => (
            <li key={failure.reason}>
              {t(`admin:wifi.reasons.${failure.reason}`, { defaultValue: failure.reason })}: {failure.count}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
