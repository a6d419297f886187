import type { ApplicationSecret } from "@kpi-id/contracts";
import { Plus } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { UnitPicker } from "@/features/console-shell/index.ts";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useCreateApplication } from "../api/applications-api.ts";
import { useFirstUnitOfMine, useReachesEverywhere } from "./application-unit.tsx";

const fields = ["name", "title", "callbackUrl"] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, string>;
const empty: Values = { name: "", title: "", callbackUrl: "" };
const isField = (value: string | undefined): value is Field => fields.some((field) => field === value);

/**
 * Registering an application. The form checks itself (noValidate): the browser's own bubbles speak the
 * browser's language, not the page's. A field the server refuses is marked with the server's reason, in
 * the page's language, and gets the focus (issue 37).
 */
export function CreateApplicationForm({ onCreated }: { onCreated: (shown: ApplicationSecret) => void }) {
  const { t } = useTranslation("admin");
  const describeError = useErrorMessage();
  const create = useCreateApplication();
  const [values, setValues] = useState(empty);
  const [missing, setMissing] = useState<Field[]>([]);
  // A unit admin's application belongs to one of their units, their own at first; an admin's may belong to none.
  const everywhere = useReachesEverywhere();
  const firstUnit = useFirstUnitOfMine();
  const [unitId, setUnitId] = useState(everywhere ? "" : firstUnit);
  const baseId = useId();
  const id = (field: Field) => `${baseId}-${field}`;
  const focus = (field: Field) => document.getElementById(id(field))?.focus();
  const refusedField = create.error instanceof ApiError ? create.error.field?.split(".")[0] : undefined;
  const refused = isField(refusedField) ? refusedField : undefined;
  const error = create.error;
  // Each refusal, even of the same field again, takes the person to the field it is about.
  useEffect(() => {
    const field = error instanceof ApiError ? error.field?.split(".")[0] : undefined;
    if (isField(field)) document.getElementById(`${baseId}-${field}`)?.focus();
  }, [error, baseId]);
  const errorOf = (field: Field): string | undefined => {
    if (missing.includes(field))
      return t("admin:applications.required", { field: t(`admin:applications.fields.${field}`) });
    return refused === field && create.isError ? describeError(create.error, "admin:failed").message : undefined;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const blank = fields.filter((field) => values[field].trim() === "");
    setMissing(blank);
    if (blank[0]) {
      focus(blank[0]);
      return;
    }
    create.mutate(unitId ? { ...values, unitId } : values, {
      onSuccess: (answer) => {
        setValues(empty);
        setUnitId(everywhere ? "" : firstUnit);
        onCreated(answer);
      },
    });
  };
  return (
    <Card className="p-4 sm:p-5">
      <form
        className="grid gap-3 sm:grid-cols-3"
        onSubmit={submit}
        noValidate
        aria-label={t("admin:applications.create")}
        data-testid="create-application"
      >
        {fields.map((field) => {
          const error = errorOf(field);
          const hint = field === "title" ? undefined : `${id(field)}-hint`;
          return (
            <div key={field} className="flex flex-col gap-1">
              <Label htmlFor={id(field)}>{t(`admin:applications.fields.${field}`)}</Label>
              <Input
                id={id(field)}
                value={values[field]}
                onChange={(event) => {
                  setValues({ ...values, [field]: event.target.value });
                  setMissing(missing.filter((held) => held !== field));
                }}
                aria-required
                aria-invalid={error ? true : undefined}
                aria-describedby={
                  [hint, error ? `${id(field)}-error` : undefined].filter(Boolean).join(" ") || undefined
                }
                spellCheck={field === "title"}
              />
              {hint ? (
                <p id={hint} className="text-xs text-muted-foreground">
                  {t(`admin:applications.hints.${field}`)}
                </p>
              ) : null}
              {error ? (
                <p
                  id={`${id(field)}-error`}
                  className="text-sm text-destructive-strong"
                  data-testid={`create-${field}-error`}
                >
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        <div className="sm:col-span-3">
          <UnitPicker
            label={t("admin:units.owner")}
            value={unitId}
            onChange={(unit) => setUnitId(unit?.id ?? "")}
            none={everywhere ? t("admin:units.central") : undefined}
            testId="create-unit"
          />
        </div>
        {create.isError && !refused ? (
          <p role="alert" className="text-sm text-destructive-strong sm:col-span-3">
            {describeError(create.error, "admin:failed").message}
          </p>
        ) : null}
        <Button
          type="submit"
          className="sm:col-span-3 sm:justify-self-start"
          loading={create.isPending}
          icon={<Plus aria-hidden />}
        >
          {t("admin:applications.create")}
        </Button>
      </form>
    </Card>
  );
}
