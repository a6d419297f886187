import type { OidcSigningKey, SamlSigningKey, SigningKeyState } from "@kpi-id/contracts";
import type { TFunction } from "i18next";
import { RotateCw } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { type ConsoleColumn, DataTable, Section, useServiceWords } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useRotateSigningKey, useSigningKeys } from "../api/service-api.ts";

const stateTones: Record<SigningKeyState, string> = {
  current: "bg-primary/10 text-primary",
  next: "bg-muted text-foreground",
  previous: "bg-muted text-muted-foreground",
};

function KeyState({ state }: { state: SigningKeyState }) {
  const { t } = useTranslation("admin-service");
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${stateTones[state]}`}>
      {t(`admin-service:keys.state.${state}`)}
    </span>
  );
}

/** The columns both lists open with: the key's id and its place in the rollover (next, current, previous). */
function keyColumns<Row extends { kid: string; state: SigningKeyState }>(t: TFunction): ConsoleColumn<Row>[] {
  return [
    {
      id: "kid",
      header: t("admin-service:keys.columns.kid"),
      cell: ({ row }) => (
        <code className="rounded bg-muted px-1.5 py-0.5 text-xs whitespace-nowrap">{row.original.kid}</code>
      ),
    },
    {
      id: "state",
      header: t("admin-service:keys.columns.state"),
      cell: ({ row }) => <KeyState state={row.original.state} />,
    },
  ];
}

/** When a key signs, signed or leaves the JWKS, by its state. */
function keyWhen(t: TFunction, date: (iso: string) => string, key: OidcSigningKey): string {
  if (key.state === "previous" && key.publishedUntil)
    return t("admin-service:keys.when.publishedUntil", { time: date(key.publishedUntil) });
  if (!key.activatesAt) return t("admin-service:keys.when.awaitingPromotion");
  const which = key.state === "next" ? "signsFrom" : "signsSince";
  return t(`admin-service:keys.when.${which}`, { time: date(key.activatesAt) });
}

function useOidcColumns(): ConsoleColumn<OidcSigningKey>[] {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  return useMemo(
    () => [
      ...keyColumns<OidcSigningKey>(t),
      {
        id: "algorithm",
        header: t("admin-service:keys.columns.algorithm"),
        cell: ({ row }) => row.original.algorithm ?? t("admin-service:keys.notPublished"),
      },
      {
        id: "created",
        header: t("admin-service:keys.columns.created"),
        cell: ({ row }) => <span className="whitespace-nowrap">{words.date(row.original.createdAt)}</span>,
      },
      {
        id: "when",
        header: t("admin-service:keys.columns.when"),
        cell: ({ row }) => <span className="whitespace-nowrap">{keyWhen(t, words.date, row.original)}</span>,
      },
    ],
    [t, words.date],
  );
}

function useSamlColumns(): ConsoleColumn<SamlSigningKey>[] {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  return useMemo(
    () => [
      ...keyColumns<SamlSigningKey>(t),
      { accessorKey: "subject", header: t("admin-service:keys.columns.subject") },
      {
        id: "fingerprint",
        header: t("admin-service:keys.columns.fingerprint"),
        cell: ({ row }) => <code className="block min-w-72 text-xs break-all">{row.original.fingerprint}</code>,
      },
      {
        id: "expires",
        header: t("admin-service:keys.columns.expires"),
        cell: ({ row }) => <span className="whitespace-nowrap">{words.day(row.original.notAfter)}</span>,
      },
    ],
    [t, words.day],
  );
}

/** Signing keys: the OpenID Connect keys (rotate, as `keys rotate`) and the SAML certificate (read-only). */
export function KeysScreen() {
  const { t } = useTranslation("admin-service");
  const describeError = useErrorMessage();
  const words = useServiceWords();
  const keys = useSigningKeys();
  const rotate = useRotateSigningKey();
  const oidcColumns = useOidcColumns();
  const samlColumns = useSamlColumns();
  const delay = words.duration(keys.data?.oidc.activationDelaySeconds ?? 0);
  const retention = words.duration(keys.data?.oidc.retentionSeconds ?? 0);
  const onRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (rotation) =>
        notify("success", t("admin-service:keys.rotated", { kid: rotation.kid, time: words.date(rotation.signsFrom) })),
      onError: (error) => notify("error", describeError(error, "admin:failed").message),
    });
  return (
    <section aria-labelledby="keys-heading" className="flex flex-col gap-4">
      <h2 id="keys-heading" className="text-lg font-semibold">
        {t("admin-service:keys.title")}
      </h2>
      {keys.isError ? (
        <Alert variant="destructive" title={t("admin-service:loadFailed")}>
          {describeError(keys.error, "admin:failed").message}
        </Alert>
      ) : null}
      <Section title={t("admin-service:keys.oidc.title")} testId="oidc-keys">
        <p className="text-sm text-muted-foreground">{t("admin-service:keys.oidc.about", { retention })}</p>
        <DataTable
          columns={oidcColumns}
          rows={keys.data?.oidc.keys ?? []}
          label={t("admin-service:keys.oidc.title")}
          empty={keys.isPending ? t("admin:loading") : t("admin:none")}
          testId="oidc-keys-table"
        />
        <div>
          <ConfirmButton
            question={t("admin-service:keys.oidc.rotateQuestion")}
            consequence={t("admin-service:keys.oidc.rotateConsequence", { delay, retention })}
            confirmLabel={t("admin-service:keys.oidc.rotate")}
            onConfirm={onRotate}
            loading={rotate.isPending}
            disabled={!keys.data}
            icon={<RotateCw aria-hidden />}
          >
            {t("admin-service:keys.oidc.rotate")}
          </ConfirmButton>
        </div>
      </Section>
      <Section title={t("admin-service:keys.saml.title")} testId="saml-keys">
        <p className="text-sm text-muted-foreground">{t("admin-service:keys.saml.about")}</p>
        {keys.data?.saml.keys.length === 0 ? (
          // No table for no key: on a phone an empty table's note would scroll sideways with its columns.
          <p className="text-sm" data-testid="saml-keys-none">
            {t("admin-service:keys.saml.none")}
          </p>
        ) : (
          <DataTable
            columns={samlColumns}
            rows={keys.data?.saml.keys ?? []}
            label={t("admin-service:keys.saml.title")}
            empty={t("admin:loading")}
            testId="saml-keys-table"
          />
        )}
      </Section>
    </section>
  );
}
