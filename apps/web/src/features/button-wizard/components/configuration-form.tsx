import { type ButtonConfig, colors, locales, logoAlignments, sizes } from "@kpi-id/signin-button";
import type { ReactNode } from "react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";

interface ConfigurationFormProps {
  config: ButtonConfig;
  onChange(config: ButtonConfig): void;
}

const selectClass =
  "h-11 w-full rounded-md border border-input bg-white px-3 text-base text-foreground shadow-xs focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40";

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The button configuration of the spec; position = logoAlignment, language = locale. */
export function ConfigurationForm({ config, onChange }: ConfigurationFormProps) {
  const { t } = useTranslation("button-wizard");
  const id = useId();
  const set = <K extends keyof ButtonConfig>(key: K, value: ButtonConfig[K]) => onChange({ ...config, [key]: value });
  const appIdMissing = config.appId.trim() === "";
  // Application ids are UUIDs; anything else gives a button whose sign-in page says the service is unknown.
  const appIdInvalid = !appIdMissing && !uuidPattern.test(config.appId.trim());
  const appIdProblem = appIdMissing ? "error" : appIdInvalid ? "invalid" : undefined;
  const field = (name: string) => `button-configuration.fields.${name}`;

  const choice = <K extends "size" | "color" | "logoAlignment" | "locale">(
    key: K,
    name: string,
    options: readonly ButtonConfig[K][],
  ) => (
    <Field id={`${id}-${name}`} label={t(`${field(name)}.label`)}>
      <select
        id={`${id}-${name}`}
        className={selectClass}
        value={config[key]}
        onChange={(event) => set(key, event.target.value as ButtonConfig[K])}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {t(`${field(name)}.options.${String(option)}`)}
          </option>
        ))}
      </select>
    </Field>
  );

  const flag = (key: "fullWidth" | "devMode", name: string) => (
    <label className="flex items-center gap-2 text-sm font-medium text-foreground">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={config[key]}
        onChange={(event) => set(key, event.target.checked)}
      />
      {t(`${field(name)}.label`)}
    </label>
  );

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold">{t("button-configuration.title")}</h2>
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => event.preventDefault()} noValidate>
        <div className="sm:col-span-2">
          <Field id={`${id}-app-id`} label={t(`${field("app-id")}.label`)}>
            <Input
              id={`${id}-app-id`}
              value={config.appId}
              required
              aria-invalid={appIdProblem !== undefined}
              aria-describedby={appIdProblem ? `${id}-app-id-error` : undefined}
              placeholder="00000000-0000-0000-0000-000000000000"
              onChange={(event) => set("appId", event.target.value)}
            />
            {appIdProblem ? (
              <p id={`${id}-app-id-error`} className="text-sm text-destructive" data-testid="app-id-problem">
                {t(`${field("app-id")}.${appIdProblem}`)}
              </p>
            ) : null}
          </Field>
        </div>
        {choice("size", "size", sizes)}
        {choice("color", "color", colors)}
        {choice("logoAlignment", "position", logoAlignments)}
        {choice("locale", "language", locales)}
        <Field id={`${id}-caption`} label={t(`${field("caption")}.label`)}>
          <Input id={`${id}-caption`} value={config.caption} onChange={(event) => set("caption", event.target.value)} />
        </Field>
        <Field id={`${id}-class-name`} label={t(`${field("class-name")}.label`)}>
          <Input
            id={`${id}-class-name`}
            value={config.className}
            onChange={(event) => set("className", event.target.value)}
          />
        </Field>
        {flag("fullWidth", "full-width")}
        {flag("devMode", "dev-mode")}
      </form>
    </Card>
  );
}
