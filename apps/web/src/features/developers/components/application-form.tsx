import { type DeveloperApplicationInput, developerScopes } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";

const textareaClass =
  "min-h-24 w-full rounded-md border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40";

type Values = Required<DeveloperApplicationInput>;

const empty: Values = {
  title: "",
  titleEn: "",
  description: "",
  descriptionEn: "",
  iconUrl: "",
  homePageUrl: "",
  privacyPolicyUrl: "",
  callbackUrls: [],
  redirectUris: [],
  scopes: ["openid", "profile"],
};

const lines = (value: string) =>
  value
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** Registering an application or changing one: names and descriptions in both languages, addresses, scopes. */
export function ApplicationForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial?: Partial<Omit<Values, "scopes">> & { scopes?: readonly string[] };
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: Values) => void;
}) {
  const { t } = useTranslation("developers");
  const id = useId();
  const [values, setValues] = useState<Values>(() => ({
    ...empty,
    ...initial,
    // An operator may have allowed a scope this page does not offer (tax_id): it is left as it is.
    scopes: initial?.scopes ? developerScopes.filter((scope) => initial.scopes?.includes(scope)) : empty.scopes,
  }));
  const [callbacks, setCallbacks] = useState(values.callbackUrls.join("\n"));
  const [redirects, setRedirects] = useState(values.redirectUris.join("\n"));
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ ...values, callbackUrls: lines(callbacks), redirectUris: lines(redirects) });
  };
  const field = (name: "title" | "titleEn" | "iconUrl" | "homePageUrl" | "privacyPolicyUrl", required = false) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{t(`form.${name}`)}</Label>
      <Input
        id={`${id}-${name}`}
        name={name}
        value={values[name]}
        onChange={set(name)}
        required={required}
        type={name.endsWith("Url") ? "url" : "text"}
      />
    </div>
  );
  const area = (name: "description" | "descriptionEn") => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{t(`form.${name}`)}</Label>
      <textarea id={`${id}-${name}`} name={name} className={textareaClass} value={values[name]} onChange={set(name)} />
    </div>
  );
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} data-testid="application-form">
      <div className="grid gap-4 sm:grid-cols-2">
        {field("title", true)}
        {field("titleEn", true)}
        {area("description")}
        {area("descriptionEn")}
      </div>
      {field("iconUrl")}
      <div className="grid gap-4 sm:grid-cols-2">
        {field("homePageUrl")}
        {field("privacyPolicyUrl")}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-callbacks`}>{t("form.callbackUrls")}</Label>
        <textarea
          id={`${id}-callbacks`}
          name="callbackUrls"
          className={textareaClass}
          value={callbacks}
          onChange={(event) => setCallbacks(event.target.value)}
          aria-describedby={`${id}-addresses-hint`}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-redirects`}>{t("form.redirectUris")}</Label>
        <textarea
          id={`${id}-redirects`}
          name="redirectUris"
          className={textareaClass}
          value={redirects}
          onChange={(event) => setRedirects(event.target.value)}
          aria-describedby={`${id}-addresses-hint`}
        />
        <p id={`${id}-addresses-hint`} className="text-sm text-muted-foreground">
          {t("form.addressesHint")}
        </p>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-foreground">{t("form.scopes")}</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {developerScopes.map((scope) => (
            <label key={scope} className="flex min-h-11 items-center gap-2 text-sm text-foreground">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={values.scopes.includes(scope)}
                disabled={scope === "openid"}
                onChange={(event) =>
                  setValues((current) => ({
                    ...current,
                    scopes: event.target.checked
                      ? [...current.scopes, scope]
                      : current.scopes.filter((each) => each !== scope),
                  }))
                }
              />
              <span>
                <code>{scope}</code> — {t(`scopes.${scope}`)}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <Button type="submit" loading={pending} disabled={pending} data-testid="application-form-submit">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
