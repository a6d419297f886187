import { type AdminApplicationDetail, type ApplicationUpdateRequest, applicationScopes } from "@kpi-id/contracts";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Section } from "@/features/console-shell/index.ts";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useUpdateApplication } from "../api/applications-api.ts";

const textFields = ["title", "titleEn", "description", "descriptionEn"] as const;
const listFields = ["callbackUrls", "redirectUris", "postLogoutRedirectUris"] as const;
const flagFields = ["releaseTaxId", "requireMfa", "oidcEnabled", "publicClient", "firstParty", "deviceFlow"] as const;
type ListField = (typeof listFields)[number];
// The fields that show their own error; any other refusal is told under the form.
const markedFields = new Set<string>([...textFields, ...listFields, "scopes", "backchannelLogoutUri"]);
type FlagField = (typeof flagFields)[number];

interface FormValues extends Record<(typeof textFields)[number] | ListField, string>, Record<FlagField, boolean> {
  scopes: string[];
  backchannelLogoutUri: string;
}

export const areaClass =
  "min-h-20 w-full rounded-md border border-border bg-white px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

function valuesOf(application: AdminApplicationDetail): FormValues {
  return {
    title: application.title,
    titleEn: application.titleEn,
    description: application.description,
    descriptionEn: application.descriptionEn,
    callbackUrls: application.callbackUrls.join("\n"),
    redirectUris: application.redirectUris.join("\n"),
    postLogoutRedirectUris: application.postLogoutRedirectUris.join("\n"),
    releaseTaxId: application.releaseTaxId,
    requireMfa: application.requireMfa,
    oidcEnabled: application.oidcEnabled,
    publicClient: application.publicClient,
    firstParty: application.firstParty,
    deviceFlow: application.deviceFlow,
    scopes: application.scopes,
    backchannelLogoutUri: application.backchannelLogoutUri ?? "",
  };
}

const lines = (value: string) =>
  value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

function requestOf(values: FormValues): ApplicationUpdateRequest {
  return {
    ...Object.fromEntries(textFields.map((field) => [field, values[field]])),
    ...Object.fromEntries(listFields.map((field) => [field, lines(values[field])])),
    ...Object.fromEntries(flagFields.map((field) => [field, values[field]])),
    // None ticked: left to the server, which gives a client being turned on its default scopes.
    scopes: values.scopes.length ? values.scopes : undefined,
    backchannelLogoutUri: values.backchannelLogoutUri.trim() || null,
  };
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive-strong" data-testid="settings-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The application's settings as one form: saved in one edit, a refused field named next to it. */
export function SettingsSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin-apps");
  const describeError = useErrorMessage();
  const save = useUpdateApplication(application.id);
  const [values, setValues] = useState(() => valuesOf(application));
  const baseId = useId();
  const id = (field: string) => `${baseId}-${field}`;
  const failure = save.isError ? describeError(save.error, "admin:failed").message : undefined;
  const failedField = save.error instanceof ApiError ? save.error.field?.split(".")[0] : undefined;
  const errorOf = (field: string) => (failedField === field ? failure : undefined);
  const invalid = (field: string) =>
    failedField === field ? { "aria-invalid": true, "aria-describedby": `${id(field)}-error` } : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(requestOf(values), { onSuccess: () => notify("success", t("admin-apps:settings.saved")) });
  };
  const text = (field: (typeof textFields)[number] | "backchannelLogoutUri") => (
    <Field key={field} id={id(field)} label={t(`admin-apps:settings.fields.${field}`)} error={errorOf(field)}>
      <Input
        id={id(field)}
        value={values[field]}
        onChange={(event) => setValues({ ...values, [field]: event.target.value })}
        {...invalid(field)}
      />
    </Field>
  );
  const list = (field: ListField) => (
    <Field key={field} id={id(field)} label={t(`admin-apps:settings.fields.${field}`)} error={errorOf(field)}>
      <textarea
        id={id(field)}
        className={areaClass}
        rows={3}
        value={values[field]}
        onChange={(event) => setValues({ ...values, [field]: event.target.value })}
        spellCheck={false}
        data-testid={`settings-${field}`}
        {...invalid(field)}
      />
    </Field>
  );
  const flag = (field: FlagField) => (
    <label key={field} className="flex items-center gap-2 text-sm" htmlFor={id(field)}>
      <input
        id={id(field)}
        type="checkbox"
        className="size-4 accent-primary"
        checked={values[field]}
        onChange={(event) => setValues({ ...values, [field]: event.target.checked })}
        data-testid={`settings-${field}`}
      />
      {t(`admin-apps:settings.fields.${field}`)}
    </label>
  );
  return (
    <Section title={t("admin-apps:settings.title")} testId="application-settings">
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <div className="grid gap-3 sm:grid-cols-2">{textFields.map(text)}</div>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold">{t("admin-apps:settings.ticket")}</legend>
          {list("callbackUrls")}
          <p className="text-xs text-muted-foreground">{t("admin-apps:settings.linesHint")}</p>
          {flag("releaseTaxId")}
          {flag("requireMfa")}
        </fieldset>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold">{t("admin-apps:settings.oidc")}</legend>
          {flag("oidcEnabled")}
          {list("redirectUris")}
          {list("postLogoutRedirectUris")}
          <fieldset aria-describedby={failedField === "scopes" ? `${id("scopes")}-error` : undefined}>
            <legend className="mb-1 text-sm font-medium">{t("admin-apps:settings.fields.scopes")}</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {applicationScopes.map((scope) => (
                <label key={scope} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={values.scopes.includes(scope)}
                    onChange={(event) =>
                      setValues({
                        ...values,
                        scopes: event.target.checked
                          ? [...values.scopes, scope]
                          : values.scopes.filter((held) => held !== scope),
                      })
                    }
                  />
                  <span>
                    {t(`admin-apps:settings.scopeNames.${scope}`)} <code className="text-xs">({scope})</code>
                  </span>
                </label>
              ))}
            </div>
            {errorOf("scopes") ? (
              <p
                id={`${id("scopes")}-error`}
                role="alert"
                className="text-sm text-destructive-strong"
                data-testid="settings-error"
              >
                {errorOf("scopes")}
              </p>
            ) : null}
          </fieldset>
          {flag("publicClient")}
          {flag("firstParty")}
          {flag("deviceFlow")}
          {text("backchannelLogoutUri")}
        </fieldset>
        {failure && !markedFields.has(failedField ?? "") ? (
          <p role="alert" className="text-sm text-destructive-strong" data-testid="settings-error">
            {failure}
          </p>
        ) : null}
        <Button type="submit" className="self-start" loading={save.isPending} data-testid="settings-save">
          {t("admin-apps:settings.save")}
        </Button>
      </form>
    </Section>
  );
}
