import type { PersonDetail } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useConsoleAction } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

const editable = ["fullName", "email", "studentId", "employeeId"] as const;
type Editable = (typeof editable)[number];

/** The profile form: the server applies the rules of `user create` and answers each bad field. */
export function ProfileForm({ person, onDone }: { person: PersonDetail; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const describeError = useErrorMessage();
  const [values, setValues] = useState<Record<Editable, string>>({
    fullName: person.fullName,
    email: person.email ?? "",
    studentId: person.studentId ?? "",
    employeeId: person.employeeId ?? "",
  });
  const save = useConsoleAction<Record<Editable, string>>(
    () => `/api/admin/people/${person.id}/profile`,
    (input) => ({
      fullName: input.fullName,
      email: input.email.trim() || null,
      studentId: input.studentId.trim() || null,
      employeeId: input.employeeId.trim() || null,
    }),
  );
  const baseId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values, {
      onSuccess: () => {
        notify("success", t("admin:person.saved"));
        onDone();
      },
    });
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
      {editable.map((field) => (
        <div key={field} className="flex flex-col gap-1">
          <Label htmlFor={`${baseId}-${field}`}>{t(`admin:person.fields.${field}`)}</Label>
          <Input
            id={`${baseId}-${field}`}
            value={values[field]}
            onChange={(event) => setValues({ ...values, [field]: event.target.value })}
          />
        </div>
      ))}
      {save.isError ? (
        <p role="alert" className="text-sm text-destructive-strong">
          {describeError(save.error, "admin:failed").message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" loading={save.isPending}>
          {t("admin:person.save")}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          {t("admin:confirm.cancel")}
        </Button>
      </div>
    </form>
  );
}
