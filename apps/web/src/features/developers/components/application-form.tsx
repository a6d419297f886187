import {
  type DeveloperApplicationInput,
  type DeveloperApplicationUpdate,
  developerApplicationUpdateSchema,
  developerScopes,
  type IconUpload,
} from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { ClientTypeField } from "./client-type-field.tsx";
import { IconField } from "./icon-field.tsx";
import { ScopesField } from "./scopes-field.tsx";

const textareaClass =
  "min-h-24 w-full rounded-md border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40";

type Values = Required<DeveloperApplicationInput>;
type Field = keyof Values;

const empty: Values = {
  clientType: "web",
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

const sameValue = (left: Values[Field], right: Values[Field]) =>
  Array.isArray(left) && Array.isArray(right)
    ? left.length === right.length && left.every((value, index) => value === right[index])
    : left === right;

/** Only what differs from the application as it is: on a live one every field sent becomes part of a pending change. */
function changedFields(values: Values, initial: Values): DeveloperApplicationUpdate {
  const changed = (Object.keys(values) as Field[]).filter((field) => !sameValue(values[field], initial[field]));
  return Object.fromEntries(changed.map((field) => [field, values[field]]));
}

/**
 * The field each refusal is about: the schema's own check here, or the server's answer (its first detail's path,
 * `redirectUris.2` naming the line, whose address the message then quotes); a refusal about no field of the form
 * (no address left, under review) is said above the button.
 */
function useFieldProblems(error: unknown, local: Partial<Record<Field, string>>, linesOf: (field: Field) => string[]) {
  const { t } = useTranslation("developers");
  const describeError = useErrorMessage();
  if (!error) return { fields: local, general: undefined };
  const message = describeError(error, "developers:errors.generic").message;
  const [field, line] = error instanceof ApiError ? (error.field?.split(".") ?? []) : [];
  if (!field || !(field in empty)) return { fields: local, general: message };
  const address = line === undefined ? undefined : linesOf(field as Field)[Number(line)];
  const said = address ? `${message} ${t("form.refusedAddress", { address })}` : message;
  return { fields: { [field]: said, ...local }, general: undefined };
}

/** Registering an application or changing one: names and descriptions in both languages, icon, addresses, scopes. */
export function ApplicationForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
  onUpdate,
  error,
  uploadIcon,
}: {
  initial?: Partial<Omit<Values, "scopes">> & { scopes?: readonly string[] };
  submitLabel: string;
  pending: boolean;
  /** A new application: everything. */
  onSubmit?: (values: Values) => void;
  /** An existing one: only the fields that changed (on a live application they become its pending change). */
  onUpdate?: (changes: DeveloperApplicationUpdate) => void;
  error?: unknown;
  /** Given for an existing application: its icon is uploaded to KPI ID (a new one has no id to store it under yet). */
  uploadIcon?: (file: IconUpload) => Promise<{ iconUrl: string }>;
}) {
  const { t } = useTranslation(["developers", "errors"]);
  const id = useId();
  const [start] = useState<Values>(() => ({
    ...empty,
    ...initial,
    // An operator may have allowed a scope this page does not offer (tax_id): it is left as it is.
    scopes: initial?.scopes ? developerScopes.filter((scope) => initial.scopes?.includes(scope)) : empty.scopes,
  }));
  const [values, setValues] = useState<Values>(start);
  const [callbacks, setCallbacks] = useState(values.callbackUrls.join("\n"));
  const [redirects, setRedirects] = useState(values.redirectUris.join("\n"));
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const linesOf = (field: Field) =>
    field === "callbackUrls" ? lines(callbacks) : field === "redirectUris" ? lines(redirects) : [];
  const { fields: problems, general } = useFieldProblems(error, invalid, linesOf);
  const type = values.clientType;
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Only what the kind of application uses is sent: a public client has no ticket callbacks, a device tool no address.
    const all = {
      ...values,
      callbackUrls: type === "web" ? lines(callbacks) : [],
      redirectUris: type === "device" ? [] : lines(redirects),
    };
    // Control and format characters are refused by the same schema the server reads, beside the field at once.
    const checked = developerApplicationUpdateSchema.safeParse(all);
    const found: Partial<Record<Field, string>> = {};
    for (const issue of checked.error?.issues ?? []) {
      const field = issue.path[0] as Field;
      if (issue.message === "developer.invalid_characters") found[field] = t("errors:developer.invalid_characters");
    }
    setInvalid(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    if (onUpdate) onUpdate(changedFields(all, start));
    else onSubmit?.(all);
  };
  const described = (name: Field, hint?: string) => {
    const ids = [hint, problems[name] ? `${id}-${name}-error` : undefined].filter(Boolean).join(" ");
    return { "aria-describedby": ids || undefined, "aria-invalid": problems[name] ? true : undefined };
  };
  const problem = (name: Field) =>
    problems[name] ? (
      <p
        id={`${id}-${name}-error`}
        className="text-sm font-medium text-destructive-strong"
        data-testid={`${name}-error`}
      >
        {problems[name]}
      </p>
    ) : null;
  const field = (name: "title" | "titleEn" | "homePageUrl" | "privacyPolicyUrl", required = false) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{t(`form.${name}`)}</Label>
      <Input
        id={`${id}-${name}`}
        name={name}
        value={values[name]}
        onChange={set(name)}
        required={required}
        type={name.endsWith("Url") ? "url" : "text"}
        {...described(name)}
      />
      {problem(name)}
    </div>
  );
  const area = (name: "description" | "descriptionEn") => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{t(`form.${name}`)}</Label>
      <textarea
        id={`${id}-${name}`}
        name={name}
        className={textareaClass}
        value={values[name]}
        onChange={set(name)}
        {...described(name)}
      />
      {problem(name)}
    </div>
  );
  const addresses = (name: "callbackUrls" | "redirectUris", value: string, change: (value: string) => void) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{t(`form.${name}`)}</Label>
      <p id={`${id}-${name}-hint`} className="text-sm text-muted-foreground">
        {t(`form.${name}Hint`)}
      </p>
      <textarea
        id={`${id}-${name}`}
        name={name}
        className={textareaClass}
        value={value}
        onChange={(event) => change(event.target.value)}
        {...described(name, `${id}-${name}-hint ${id}-addresses-hint`)}
      />
      {problem(name)}
    </div>
  );
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} data-testid="application-form">
      {onSubmit ? (
        <ClientTypeField value={type} onChange={(clientType) => setValues((current) => ({ ...current, clientType }))} />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {field("title", true)}
        {field("titleEn", true)}
        {area("description")}
        {area("descriptionEn")}
      </div>
      {uploadIcon ? (
        <IconField
          value={values.iconUrl}
          upload={uploadIcon}
          onChange={(iconUrl) => setValues((current) => ({ ...current, iconUrl }))}
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {field("homePageUrl")}
        {field("privacyPolicyUrl")}
      </div>
      {type === "web" ? addresses("callbackUrls", callbacks, setCallbacks) : null}
      {type !== "device" ? addresses("redirectUris", redirects, setRedirects) : null}
      {type === "device" ? (
        <p className="text-sm text-muted-foreground" data-testid="device-needs-no-address">
          {t("form.deviceNoAddress")}
        </p>
      ) : (
        <p id={`${id}-addresses-hint`} className="-mt-2 text-sm text-muted-foreground">
          {t("form.addressesHint")}
        </p>
      )}
      <ScopesField
        scopes={values.scopes}
        clientType={type}
        onChange={(scopes) => setValues((current) => ({ ...current, scopes }))}
      />
      {general ? (
        <p className="text-sm font-medium text-destructive-strong" role="alert" data-testid="application-form-error">
          {general}
        </p>
      ) : null}
      <div>
        <Button type="submit" loading={pending} disabled={pending} data-testid="application-form-submit">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
